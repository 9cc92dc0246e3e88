import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainRefusal, redact, unreachableReason } from '../../sdk/src/cli/explain';
import { savedAt, scheduleLine, startingPoint } from '../../sdk/src/cli/listen';
import { RecentIds } from '../../sdk/src/cli/logs';
import { keyDigest, ListenState, stateDirectory, Watermark } from '../../sdk/src/cli/state';
import { closestCommand, commandOf, usage } from '../../sdk/src/cli/usage';
import { duration, listed, plural } from '../../sdk/src/cli/words';
import { startCli } from '../support/cli';

const root = path.resolve(import.meta.dirname, '../..');
const EVENT = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Runs the CLI in its own process, as a person does, with no key, service or saved position of its own. */
async function qps(args: string[], env: Record<string, string> = {}) {
  const run = startCli(args, { QPS_API_KEY: '', QPS_BASE_URL: '', QPS_STATE_DIR: mkdtempSync(path.join(os.tmpdir(), 'qps-state-')), ...env });
  const code = await run.exited;
  return { code, stdout: run.output.stdout, stderr: run.output.stderr };
}

/** A port nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('qps words', () => {
  it('says one second, two seconds, minutes and hours', () => {
    expect(duration(1000)).toBe('1 second');
    expect(duration(2000)).toBe('2 seconds');
    expect(duration(1500)).toBe('1.5 seconds');
    expect(duration(60_000)).toBe('1 minute');
    expect(duration(300_000)).toBe('5 minutes');
    expect(duration(7_200_000)).toBe('2 hours');
    expect(plural(1, 'event')).toBe('1 event');
    expect(plural(0, 'event')).toBe('0 events');
    expect(listed(['a', 'b', 'c'])).toBe('a, b and c');
  });

  it('renders the retry schedules the service sends', () => {
    const ready = { after: null, retrySchedule: { standardMs: [30_000, 300_000, 1_800_000, 7_200_000], compressedMs: [2000, 5000, 10_000, 20_000] } };
    expect(scheduleLine(ready, false)).toBe('a failed attempt is retried after 30 seconds, 5 minutes, 30 minutes and 2 hours.');
    expect(scheduleLine(ready, true)).toBe(
      'a failed attempt is retried after 2 seconds, 5 seconds, 10 seconds and 20 seconds (compressed: the service retries after 30 seconds, 5 minutes, 30 minutes and 2 hours).',
    );
  });
});

describe('qps usage', () => {
  it('reads commands and suggests the closest to a mistyped one', () => {
    expect(commandOf(['logs', 'tail'])).toBe('logs tail');
    expect(commandOf(['listen', 'extra'])).toBe('listen');
    expect(commandOf(['logs'])).toBeNull();
    expect(closestCommand('lisen')).toBe('listen');
    expect(closestCommand('trigerr')).toBe('trigger');
    expect(closestCommand('logs')).toBe('logs tail');
    expect(closestCommand('resnd')).toBe('resend');
    expect(closestCommand('deploy')).toBeNull();
    expect(usage('listen')).toMatch(/^usage: qps listen --forward-to <url>/);
    expect(usage()).toContain('qps logs tail');
  });

  // Ten processes, each compiling the CLI with tsx: run side by side, since one after another
  // they took over 30 s under the whole suite's load.
  it('prints help to stdout and exits 0; no command or an unknown one exits 2', async () => {
    const helps = [['--help'], ['help'], ['-h'], ['listen', '--help'], ['help', 'trigger'], ['logs', 'tail', '--help']];
    const [helped, trigger, none, typo, badAfter] = await Promise.all([
      Promise.all(helps.map((args) => qps(args))),
      qps(['trigger', '--help']),
      qps([]),
      qps(['lisen', '--forward-to', 'http://localhost:4000']),
      qps(['listen', '--forward-to', 'http://localhost:4000', '--after', '42'], { QPS_API_KEY: 'sk_test_x' }),
    ]);
    helped.forEach((run, i) => {
      expect(run.code, `${helps[i].join(' ')}: ${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/^usage: qps/);
      expect(run.stderr).toBe('');
    });
    expect(trigger.code, trigger.stderr).toBe(0);
    expect(trigger.stdout, trigger.stderr).toMatch(/^usage: qps trigger <event type>/);

    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^Name a command: `qps listen --forward-to/);
    expect(none.stderr).toContain('usage: qps <command>');

    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Unknown command "lisen". Did you mean `qps listen`?');

    expect(badAfter.code).toBe(2);
    expect(badAfter.stderr).toContain('--after takes an event id');
  }, 90_000);
});

describe('qps errors', () => {
  it('names a refused connection and the key’s refusal without showing the key', () => {
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3000'), { code: 'ECONNREFUSED' }) });
    expect(unreachableReason(refused)).toBe('connection refused');
    expect(explainRefusal(401, 'invalid_api_key', 'The API key is not valid.')).toMatch(/^The service refused the API key \(invalid_api_key\): The API key is not valid\./);
    expect(explainRefusal(429, 'rate_limited', 'Too many requests.', 1)).toBe('The service refused it (429 rate_limited): Too many requests. Try again in 1 second.');
    expect(redact('key sk_test_abcdef123456 was refused', 'sk_test_abcdef123456')).toBe('key sk_test_… was refused');
  });

  it('says the service cannot be reached, and exits 1, for every command that calls it', async () => {
    const port = await closedPort();
    const env = { QPS_API_KEY: 'sk_test_not_a_real_key_0123456789', QPS_BASE_URL: `http://localhost:${port}` };
    for (const args of [['trigger', 'api_key.created'], ['logs', 'tail'], ['resend', EVENT(1), '--forward-to', 'http://localhost:4000', '--secret', 'whsec_x']]) {
      const run = await qps(args, env);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr).toBe(
        `qps: Cannot reach the service at http://localhost:${port} (connection refused). Is it running? Start it with \`npm start\`, or set QPS_BASE_URL.\n`,
      );
      expect(run.stderr + run.stdout).not.toContain(env.QPS_API_KEY);
    }
  }, 30_000);

  it('exits 1 when send’s receiver cannot be reached', async () => {
    const port = await closedPort();
    const run = await qps(['send', '--type', 'quote_intent.failed', '--data', path.join(root, 'package.json'), '--forward-to', `http://127.0.0.1:${port}/hooks`, '--secret', 'whsec_x']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/→ not reached \(connection refused\)/);
    expect(run.stderr).toContain('did not acknowledge the event');
  });
});

describe('qps listen state', () => {
  it('keeps a position per key digest and URL, atomically, never the key', () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'qps-state-'));
    let now = new Date('2025-03-01T12:03:04Z');
    const a = new ListenState({ apiKey: 'sk_test_secret_a', forwardTo: 'http://localhost:4000/a', directory }, () => now);
    const b = new ListenState({ apiKey: 'sk_test_secret_a', forwardTo: 'http://localhost:4000/b', directory }, () => now);
    const other = new ListenState({ apiKey: 'sk_test_secret_b', forwardTo: 'http://localhost:4000/a', directory }, () => now);
    expect(a.load()).toBeNull();
    a.save(EVENT(1));
    now = new Date('2025-03-01T12:05:00Z');
    b.save(EVENT(2));
    expect(a.load()).toEqual({ after: EVENT(1), savedAt: '2025-03-01T12:03:04.000Z' });
    expect(b.load()?.after).toBe(EVENT(2));
    expect(other.load()).toBeNull();
    const text = readFileSync(path.join(directory, 'listen.json'), 'utf8');
    expect(text).not.toContain('sk_test_secret');
    expect(text).toContain(keyDigest('sk_test_secret_a'));
    expect(readdirSync(directory)).toEqual(['listen.json']);
    a.clear();
    expect(a.load()).toBeNull();
    expect(b.load()?.after).toBe(EVENT(2));
  });

  it('lives in QPS_STATE_DIR, else XDG_STATE_HOME/qps, else ~/.local/state/qps', () => {
    expect(stateDirectory({ QPS_STATE_DIR: '/s' })).toBe('/s');
    expect(stateDirectory({ XDG_STATE_HOME: '/x' })).toBe('/x/qps');
    expect(stateDirectory({})).toBe(path.join(os.homedir(), '.local/state/qps'));
  });

  it('starts after --after, else the saved position, else the newest', () => {
    const saved = { after: EVENT(1), savedAt: new Date().toISOString() };
    expect(startingPoint(EVENT(9), saved)).toMatchObject({ after: EVENT(9), source: 'flag' });
    expect(startingPoint(null, saved)).toMatchObject({ after: EVENT(1), source: 'saved' });
    expect(startingPoint(null, saved).line).toMatch(new RegExp(`^Resuming after event ${EVENT(1)} \\(saved \\d\\d:\\d\\d:\\d\\d\\)\\.$`));
    expect(startingPoint(null, null)).toMatchObject({ after: null, source: 'newest' });
    expect(savedAt({ after: EVENT(1), savedAt: '2020-01-02T03:04:05Z' })).toMatch(/^2020-01-0\d \d\d:\d\d:05$/);
  });

  it('moves past an event only when it and every earlier one is settled', () => {
    const mark = new Watermark(null);
    expect(mark.start(EVENT(0))).toBe(true);
    mark.received(EVENT(1));
    mark.received(EVENT(2));
    expect(mark.settled(EVENT(2))).toBe(false);
    expect(mark.current).toBe(EVENT(0));
    expect(mark.inFlight).toBe(1);
    expect(mark.settled(EVENT(1))).toBe(true);
    expect(mark.current).toBe(EVENT(2));
    // A reconnection's `ready` names the last event received: nothing moves while one is pending.
    mark.received(EVENT(3));
    expect(mark.start(EVENT(3))).toBe(false);
    expect(mark.current).toBe(EVENT(2));
  });

  it('keeps an environment without events as `beginning`, so what comes while it is stopped is forwarded next time', () => {
    const mark = new Watermark(null);
    expect(mark.start(null)).toBe(true);
    expect(mark.current).toBe('beginning');
    expect(startingPoint(null, { after: 'beginning', savedAt: new Date().toISOString() })).toMatchObject({ after: 'beginning', source: 'saved', line: expect.stringMatching(/^Resuming from the first event/) });
  });
});

describe('qps logs tail', () => {
  it('remembers its own request ids, a bounded number', () => {
    const ids = new RecentIds(2);
    ids.add('a');
    ids.add('b');
    ids.add(null);
    ids.add('c');
    expect([ids.has('a'), ids.has('b'), ids.has('c')]).toEqual([false, true, true]);
  });
});
