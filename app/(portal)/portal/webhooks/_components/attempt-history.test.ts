import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AttemptHistory } from './attempt-history';
import type { Attempt } from './types';

const attempt = (fields: Partial<Attempt>): Attempt => ({
  number: 1,
  state: 'ended',
  startedAt: '2026-12-01T10:00:00.000Z',
  latencyMs: 12,
  responseStatus: 200,
  responseExcerpt: 'ok',
  requestHeaders: null,
  responseHeaders: null,
  error: null,
  ...fields,
});

/** The table's cells, row by row, as text. */
function rows(attempts: Attempt[]): string[][] {
  const html = renderToStaticMarkup(createElement(AttemptHistory, { attempts, label: 'Attempts' }));
  return [...html.matchAll(/<tr>(.*?)<\/tr>/g)].slice(1).map(([, row]) => [...row.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map(([, cell]) => cell.replace(/<[^>]+>/g, '')));
}

describe('a delivery’s attempts in the portal', () => {
  it('says an attempt whose outcome was lost got no recorded answer because the process stopped, numbered among the others', () => {
    const shown = rows([
      attempt({ number: 1, state: 'lost', latencyMs: null, responseStatus: null, responseExcerpt: null, error: 'no answer recorded: the process stopped' }),
      attempt({ number: 2, state: 'ended', latencyMs: 35, responseStatus: 200 }),
      attempt({ number: 3, state: 'sending', latencyMs: null, responseStatus: null, responseExcerpt: null }),
    ]);
    expect(shown.map((cells) => cells[0])).toEqual(['1', '2', '3']);
    expect(shown[0]).toEqual([expect.any(String), expect.any(String), 'none recorded', '—', 'no answer recorded: the process stopped', 'empty']);
    expect(shown[1].slice(2, 5)).toEqual(['200', '35 ms', '—']);
    expect(shown[2].slice(2, 5)).toEqual(['waiting for an answer', '—', '—']);
  });
});
