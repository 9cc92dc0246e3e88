import { describe, expect, it } from 'vitest';
import { endpointUrlProblem, guardedLookup, isAlwaysForbiddenAddress, isForbiddenAddress } from './target-policy';

describe('webhook target policy', () => {
  it('accepts https URLs only, without credentials or fragments', () => {
    expect(endpointUrlProblem('https://hooks.example.com/quotes?x=1')).toBeNull();
    expect(endpointUrlProblem('http://hooks.example.com')).toMatch(/https/);
    expect(endpointUrlProblem('https://user:pw@hooks.example.com')).toMatch(/credentials/);
    expect(endpointUrlProblem('https://hooks.example.com/#frag')).toMatch(/fragment/);
    expect(endpointUrlProblem('not a url')).toMatch(/absolute/);
  });

  it('forbids loopback, private, link-local and unspecified addresses, v4 and v6', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '100.64.0.1']) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });

  it('refuses link-local (cloud metadata) addresses even where private targets are allowed', () => {
    expect(isAlwaysForbiddenAddress('169.254.169.254')).toBe(true);
    expect(isAlwaysForbiddenAddress('fe80::1')).toBe(true);
    expect(isAlwaysForbiddenAddress('127.0.0.1')).toBe(false);
    expect(isAlwaysForbiddenAddress('10.0.0.5')).toBe(false);
  });

  it('refuses at lookup time a name that resolves to loopback', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup(isForbiddenAddress)('localhost', {}, (e) => resolve(e)));
    expect(error?.message).toMatch(/non-public address/);
  });
});
