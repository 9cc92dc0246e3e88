import { describe, expect, it } from 'vitest';
import { rememberedPerProcess } from './per-process';

describe('rememberedPerProcess', () => {
  it('loads once for concurrent callers, and loads again after forget', async () => {
    let loads = 0;
    const load = async () => ++loads;
    const one = rememberedPerProcess<number>(`Test${Math.random()}`);
    expect(await Promise.all([one.get(load), one.get(load)])).toEqual([1, 1]);
    expect(loads).toBe(1);
    one.forget();
    expect(await one.get(load)).toBe(2);
  });

  it('two handles of one name (a module bundled twice) see the same value', async () => {
    const name = `Test${Math.random()}`;
    const first = rememberedPerProcess<string>(name);
    const second = rememberedPerProcess<string>(name);
    expect(await first.get(async () => 'made by the first')).toBe('made by the first');
    expect(await second.get(async () => 'made by the second')).toBe('made by the first');
  });

  it('does not remember a failure: the next caller tries again', async () => {
    const memo = rememberedPerProcess<string>(`Test${Math.random()}`);
    await expect(memo.get(() => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await memo.get(async () => 'up again')).toBe('up again');
  });
});
