import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ExperimentArm } from './trace-facts';

const text = (html: string) => html.replace(/<[^>]+>/g, '');

describe('the experiment arm on a quote’s trace', () => {
  it('names the experiment, the arm and the bucket', () => {
    const html = renderToStaticMarkup(
      createElement(ExperimentArm, { experiment: { id: '4d3c2b1a-0f9e-4d8c-b7a6-958473625140', name: 'Spring prices', arm: 'variant_1', bucket: 4123, buckets: 10_000 } }),
    );
    expect(text(html)).toBe('Priced by experiment ‘Spring prices’, arm variant_1 (bucket 4123 of 10000)');
  });

  it('shows nothing outside an experiment', () => {
    expect(renderToStaticMarkup(createElement(ExperimentArm, { experiment: null }))).toBe('');
  });
});
