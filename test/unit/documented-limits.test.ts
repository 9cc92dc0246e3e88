import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACT_BYTES } from '../../app/v1/books/contract';
import { MAX_JSON_DEPTH } from '../../lib/json/json-limits';
import { DEFAULT_MAX_BODY_BYTES } from '../../lib/http/read-body';
import { RATE_LIMITS } from '../../lib/ratelimit/registry';
// @ts-expect-error: a plain .mjs script without types
import { httpTimeouts } from '../../scripts/http-edge.mjs';

/** The limits the docs promise are the ones the code holds: each number read from both. */

const doc = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../../docs', name), 'utf8').replace(/\s+/g, ' ');
const number = (text: string) => Number(text.replaceAll(',', ''));

function read(name: string, pattern: RegExp): number[] {
  const match = pattern.exec(doc(name));
  expect(match, `${name} says ${pattern}`).not.toBeNull();
  return match!.slice(1).map(number);
}

describe('docs/reliability.md', () => {
  it('states the body limits the body reader enforces', () => {
    expect(read('reliability.md', /At most ([\d,]+) bytes \(([\d,]+) for book artifacts/)).toEqual([DEFAULT_MAX_BODY_BYTES, ARTIFACT_BYTES]);
    expect(read('reliability.md', /Nested at most (\d+) levels/)).toEqual([MAX_JSON_DEPTH]);
  });

  it('states the edge’s header size and times', () => {
    expect(read('reliability.md', /Headers over ([\d,]+) bytes/)).toEqual([http.maxHeaderSize]);
    const { headers, request, keepAlive } = httpTimeouts({});
    expect(read('reliability.md', /Headers not complete within (\d+) s/)).toEqual([headers / 1000]);
    expect(read('reliability.md', /A body not complete within (\d+) s of the request's start/)).toEqual([request / 1000]);
    expect(read('reliability.md', /Idle keep-alive connections close after (\d+) s/)).toEqual([keepAlive / 1000]);
  });
});

describe('docs/quote-lifecycle.md', () => {
  it('states the acceptance allowance the registry holds', () => {
    expect(read('quote-lifecycle.md', /(\d+) new acceptances per minute per business, of which (\d+) from one client address/)).toEqual([
      RATE_LIMITS.publicAcceptanceCreate.points,
      RATE_LIMITS.publicAcceptancePerClient.points,
    ]);
    expect(RATE_LIMITS.publicAcceptanceCreate.durationSeconds).toBe(60);
    expect(RATE_LIMITS.publicAcceptancePerClient.durationSeconds).toBe(60);
  });
});
