import { describe, expect, it } from 'vitest';
import { dateTimeLocalFromIso, isoFromDateTimeLocal, narrowsLog, requestLogApiQuery, searchParamsFromForm, withCursor } from './request-log-filters';

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

describe('request-log filters', () => {
  it('keeps only the filters that have a value, and drops the default page size', () => {
    const params = searchParamsFromForm(form({ requestId: ' abc ', status: '', statusClass: '4xx', path: '/v1/quotes', environment: '', limit: '50' }));
    expect(params.toString()).toBe('requestId=abc&statusClass=4xx&path=%2Fv1%2Fquotes');
  });

  it('lets an exact status replace its class', () => {
    expect(searchParamsFromForm(form({ status: '422', statusClass: '4xx' })).toString()).toBe('status=422');
  });

  it('turns local times into ISO instants and back', () => {
    const params = searchParamsFromForm(form({ from: '2026-03-01T09:30', to: '2026-03-01T17:00' }));
    expect(params.get('from')).toBe(new Date('2026-03-01T09:30').toISOString());
    expect(dateTimeLocalFromIso(params.get('from'))).toBe('2026-03-01T09:30');
    expect(dateTimeLocalFromIso(isoFromDateTimeLocal('2026-12-31T23:59'))).toBe('2026-12-31T23:59');
    expect(dateTimeLocalFromIso('not a time')).toBe('');
    expect(dateTimeLocalFromIso(null)).toBe('');
  });

  it('passes the page filters and cursor to the API, and nothing else', () => {
    const page = new URLSearchParams('statusClass=5xx&cursor=42&utm_source=mail&path=');
    expect(requestLogApiQuery(page)).toBe('statusClass=5xx&cursor=42&portal=exclude');
  });

  it('leaves the portal\'s own requests out unless asked, and never hides a looked-up request id', () => {
    expect(requestLogApiQuery(new URLSearchParams('caller=member'))).toBe('caller=member&portal=exclude');
    expect(requestLogApiQuery(new URLSearchParams('portal=include'))).toBe('');
    expect(requestLogApiQuery(new URLSearchParams('portal=only&method=PUT'))).toBe('method=PUT&portal=only');
    expect(requestLogApiQuery(new URLSearchParams('requestId=abc'))).toBe('requestId=abc');
    expect(searchParamsFromForm(form({ portal: 'exclude', method: 'POST' })).toString()).toBe('method=POST');
    expect(searchParamsFromForm(form({ portal: 'only' })).toString()).toBe('portal=only');
  });

  it('tells a search that narrows the log from the whole log (page size and page do not narrow)', () => {
    expect(narrowsLog(new URLSearchParams(''))).toBe(false);
    expect(narrowsLog(new URLSearchParams('limit=10&cursor=x'))).toBe(false);
    expect(narrowsLog(new URLSearchParams('path=%20'))).toBe(false);
    expect(narrowsLog(new URLSearchParams('status=404'))).toBe(true);
    expect(narrowsLog(new URLSearchParams('from=2026-11-01T00:00:00.000Z'))).toBe(true);
    expect(narrowsLog(new URLSearchParams('portal=only'))).toBe(true);
  });

  it('moves between pages of the same search', () => {
    const page = new URLSearchParams('environment=live&limit=10');
    const older = withCursor(page, '77');
    expect(older.toString()).toBe('environment=live&limit=10&cursor=77');
    expect(withCursor(older, null).toString()).toBe('environment=live&limit=10');
  });
});
