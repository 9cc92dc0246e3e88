import { describe, expect, it } from 'vitest';
import { jobRunnerText, migrationsText, progressLine, welcomeLines } from '../../scripts/support/start-output';

describe('npm start output', () => {
  it('prints one aligned line per phase, and the migrations as a count', () => {
    expect(progressLine('Migrations', migrationsText(0, 26))).toBe('Migrations: 26, none pending');
    expect(progressLine('Database', 'DATABASE_URL')).toBe('Database:   DATABASE_URL');
    expect(migrationsText(3, 26)).toBe('3 applied (26 in all)');
    expect(jobRunnerText(undefined)).toMatch(/^in-process/);
    expect(jobRunnerText('off')).toMatch(/^off/);
  });

  it('ends with a short banner: portal, quote page, people, where the keys are, what to read next; never a Live key', () => {
    const demo = { businessId: 'b1', keys: { test: 'sk_test_demo', live: 'sk_live_secret' } };
    const lines = welcomeLines({ url: 'http://localhost:3000', embedded: true, demo, demoFile: '.data/demo.json' });
    const text = lines.join('\n');
    expect(lines.length).toBeLessThan(15);
    expect(text).toContain('http://localhost:3000/portal');
    expect(text).toContain('http://localhost:3000/q/b1');
    expect(text).toContain('admin@demo.test');
    expect(text).toContain('viewer@demo.test');
    expect(text).toContain('.data/demo.json');
    expect(text).toContain('Next:       docs/integrating.md');
    expect(text).toContain('sk_test_demo');
    expect(text).not.toContain('sk_live_secret');
    // Elsewhere than the local embedded database, stdout may be collected: no key at all.
    expect(welcomeLines({ url: 'https://q.example', embedded: false, demo, demoFile: '.data/demo.json' }).join('\n')).not.toContain('sk_test_demo');
  });
});
