import { describe, expect, it } from 'vitest';
import { endpointUrlProblem, guardedLookup, isAlwaysForbiddenAddress, isForbiddenAddress, targetVerdict } from './target-policy';

/** Refused wherever the endpoint is created, private targets allowed or not. */
const NEVER = [
  'https://169.254.169.254/latest/meta-data',
  'https://[::ffff:169.254.169.254]/',
  'https://[::ffff:a9fe:a9fe]/',
  'https://[0:0:0:0:0:ffff:a9fe:a9fe]/',
  'https://0xa9fea9fe/', // 169.254.169.254 written as one hex number
  'https://2852039166/', // ... and as one decimal number
  'https://169.254.0.1:8443/',
  'https://[fe80::1]/',
  'https://0.0.0.0/',
  'https://0/',
  'https://[::]/',
  'https://[::ffff:0.0.0.0]/',
  'https://224.0.0.1/',
  'https://239.255.255.250/',
  'https://[ff02::1]/',
  'https://[::ffff:224.0.0.1]/',
  'https://255.255.255.255/',
  'https://[64:ff9b::7f00:1]/', // NAT64 form of 127.0.0.1
  'https://[2002:7f00:1::]/', // 6to4 form of 127.0.0.1
  'https://192.0.2.10/', // documentation range
  'https://240.0.0.1/',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://METADATA.GOOGLE.INTERNAL./',
];

/** Refused unless the deployment allows private targets; then accepted with a note. */
const PRIVATE = [
  'https://127.0.0.1/hooks',
  'https://127.1/',
  'https://0x7f000001/',
  'https://017700000001/',
  'https://%31%32%37.0.0.1/',
  'https://127.255.255.254:9443/',
  'https://[::1]/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:7f00:1]/',
  'https://[0:0:0:0:0:0:0:1]/',
  'https://10.0.0.5/',
  'https://172.16.3.4/',
  'https://172.31.255.255/',
  'https://192.168.1.20/',
  'https://[::ffff:10.1.2.3]/',
  'https://[fc00::1]/',
  'https://[fd12:3456::1]/',
  'https://100.64.0.1/',
  'https://localhost/',
  'https://LOCALHOST.:8443/',
  'https://hooks.localhost/',
];

/** No host written: the parser would take the path's first segment for it. */
const NO_HOST = ['https:///nohost', 'https:////nohost/x', 'https:\\\\nohost', 'https:/nohost', 'https:nohost'];

const PUBLIC = [
  'https://hooks.example.com/quotes?x=1',
  'https://93.184.216.34/',
  'https://[2606:2800:220:1:248:1893:25c8:1946]/',
  'https://172.32.0.1/', // just past 172.16.0.0/12
  'https://169.255.0.1/', // just past link-local
  'https://hooks.example.com:8443/',
];

describe('webhook target policy', () => {
  it('accepts https URLs only, without credentials or fragments', () => {
    expect(endpointUrlProblem('https://hooks.example.com/quotes?x=1')).toBeNull();
    expect(endpointUrlProblem('http://hooks.example.com')).toMatch(/https/);
    expect(endpointUrlProblem('https://user:pw@hooks.example.com')).toMatch(/credentials/);
    expect(endpointUrlProblem('https://hooks.example.com/#frag')).toMatch(/fragment/);
    expect(endpointUrlProblem('not a url')).toMatch(/absolute/);
  });

  it.each(NEVER)('refuses %s on every deployment', (url) => {
    expect(endpointUrlProblem(url), url).toBeNull(); // a valid https URL: the policy refuses it, not the syntax
    for (const allowPrivate of [false, true]) {
      const verdict = targetVerdict(url, allowPrivate);
      expect(verdict.problem, `${url} (private allowed: ${allowPrivate})`).toMatch(/no deployment delivers to it/);
      expect(verdict.note).toBeNull();
    }
  });

  it.each(PRIVATE)('refuses %s unless private targets are allowed, and then says so', (url) => {
    expect(endpointUrlProblem(url), url).toBeNull();
    expect(targetVerdict(url, false).problem, url).toMatch(/this deployment refuses private, loopback and local targets/);
    expect(targetVerdict(url, true)).toEqual({ problem: null, note: expect.stringMatching(/this deployment allows private targets/) });
  });

  it.each(NO_HOST)('refuses %s: no host written', (url) => {
    for (const allowPrivate of [false, true]) expect(targetVerdict(url, allowPrivate).problem, url).toBe('must name its host right after https://');
  });

  it.each(PUBLIC)('accepts %s everywhere, without a note', (url) => {
    expect(endpointUrlProblem(url)).toBeNull();
    for (const allowPrivate of [false, true]) expect(targetVerdict(url, allowPrivate)).toEqual({ problem: null, note: null });
  });

  it('names the address a person typed, and the IPv4 address a mapped form stands for', () => {
    expect(targetVerdict('https://[::ffff:7f00:1]/', false).problem).toBe(
      '::ffff:7f00:1 (the IPv4-mapped form of 127.0.0.1) is a loopback address: this deployment refuses private, loopback and local targets',
    );
    expect(targetVerdict('https://169.254.169.254/', true).problem).toBe(
      '169.254.169.254 is a link-local address, where cloud metadata services answer: no deployment delivers to it',
    );
  });

  it('forbids loopback, private, link-local and unspecified addresses, v4 and v6', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '100.64.0.1']) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });

  it('refuses link-local (cloud metadata) and translated addresses even where private targets are allowed', () => {
    for (const address of ['169.254.169.254', 'fe80::1', '::ffff:169.254.169.254', '0.0.0.0', '::', '224.0.0.1', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::']) {
      expect(isAlwaysForbiddenAddress(address), address).toBe(true);
    }
    for (const address of ['127.0.0.1', '10.0.0.5', '::1', 'fd00::5']) expect(isAlwaysForbiddenAddress(address), address).toBe(false);
  });

  it('refuses at lookup time a name that resolves to loopback', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup(isForbiddenAddress)('localhost', {}, (e) => resolve(e)));
    expect(error?.message).toMatch(/non-public address/);
  });
});
