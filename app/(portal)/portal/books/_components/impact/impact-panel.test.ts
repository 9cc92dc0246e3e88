import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ImpactPanel } from './impact-panel';

const draft = { currency: 'USD', offerings: [] };
const render = (props: { artifact: unknown; checking: boolean }) =>
  renderToStaticMarkup(createElement(ImpactPanel, { bookId: 'b', problems: 0, canPublish: true, offerings: [], factors: [], ...props }));
const measureButton = (html: string) => html.match(/<button type="submit"[^>]*>[^<]*<\/button>/)?.[0] ?? '';

describe('the impact panel’s Measure button', () => {
  it('measures a draft that can price and whose newest edits are checked', () => {
    const button = measureButton(render({ artifact: draft, checking: false }));
    expect(button).toContain('Measure impact');
    expect(button).not.toContain('disabled');
  });

  // The check runs off the page's thread a few keystrokes behind: measuring then would price an older draft.
  it('waits while the newest edits are being checked', () => {
    expect(measureButton(render({ artifact: draft, checking: true }))).toContain('disabled');
  });

  it('waits while the draft has problems', () => {
    const html = render({ artifact: null, checking: false });
    expect(measureButton(html)).toContain('disabled');
    expect(html).toContain('so it cannot price yet');
  });
});
