import type { Comparison, GuardrailCheck, MetricId } from './statistics';

/** Results in sentences for the portal: percentages only, no money formatting. */

export type ArmLabels = { control: string; variant: string };

const NOUN: Record<MetricId, string> = {
  revenue_per_quote: 'revenue per quote',
  acceptance_rate: 'acceptances per quote',
  committed_revenue_per_quote: 'committed revenue per quote',
};

/** "B brings 12% more revenue per quote (95%: between +4% and +20%)", and its siblings. */
export function describeComparison(c: Comparison, labels: ArmLabels): string {
  const { control: a, variant: b } = labels;
  const noun = NOUN[c.metric];
  const level = percent(c.confidenceLevel);
  const range = c.relative ? ` (${level}: between ${signed(c.relative.lower)} and ${signed(c.relative.upper)})` : '';
  switch (c.verdict) {
    case 'better':
    case 'worse': {
      const more = c.verdict === 'better' ? 'more' : 'less';
      if (!c.relative) return `${b} brings ${more} ${noun} than ${a}, which has none yet`;
      return `${b} brings ${percent(Math.abs(c.relative.estimate))} ${more} ${noun}${range}`;
    }
    case 'same':
      return `${b} and ${a} bring the same ${noun} within ${percent(c.minimumEffect)}${range}`;
    case 'not_enough_data':
      return `Not enough data yet: ${howMuchMore(c, labels)}${soFar(c, labels, noun, range)}`;
  }
}

/** "Pause B: its acceptance rate is more than 3 points below A's (95%: at least 4.2 points)". */
export function describeGuardrail(g: GuardrailCheck, labels: ArmLabels): string {
  const { control: a, variant: b } = labels;
  const margin = points(g.marginPoints);
  if (g.breached && g.upperBound !== null) {
    return `Pause ${b}: its acceptance rate is more than ${margin} below ${a}'s (${percent(1 - g.alpha)}: at least ${points(-g.upperBound)} below)`;
  }
  return `${b}'s acceptance rate is not shown to be more than ${margin} below ${a}'s`;
}

function howMuchMore(c: Comparison, { control: a, variant: b }: ArmLabels): string {
  if (c.control.quotes === 0 && c.variant.quotes === 0) return 'no quotes yet';
  const m = c.moreQuotes;
  if (!m) return 'too little variation to tell how many more quotes are needed';
  const [x, y] = [about(m.control), about(m.variant)];
  if (x === y) return `about ${count(x)} more quotes per arm`;
  if (y === 0) return `about ${count(x)} more quotes for ${a}`;
  if (x === 0) return `about ${count(y)} more quotes for ${b}`;
  return `about ${count(x)} more quotes for ${a} and ${count(y)} for ${b}`;
}

function soFar(c: Comparison, { control: a, variant: b }: ArmLabels, noun: string, range: string): string {
  if (!c.relative) return '';
  const e = c.relative.estimate;
  const interval = range.replace(/^ \(/, ', ').replace(/\)$/, '');
  if (percent(Math.abs(e)) === '0%') return ` (so far ${b} and ${a} bring the same ${noun}${interval})`;
  return ` (so far ${b} brings ${percent(Math.abs(e))} ${e > 0 ? 'more' : 'less'} ${noun}${interval})`;
}

/** Two significant figures, rounded up: "about 4,800", never "about 4,731". */
function about(n: number): number {
  if (n < 100) return Math.ceil(n);
  const step = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.ceil(n / step) * step;
}

const count = (n: number) => n.toLocaleString('en-US');

/** 0.123 → "12%", 0.0234 → "2.3%": whole percents from 10%, one decimal below. */
function percent(fraction: number): string {
  const p = Math.abs(fraction * 100);
  const text = p >= 10 ? String(Math.round(p)) : String(Math.round(p * 10) / 10);
  return `${fraction < 0 && text !== '0' ? '-' : ''}${text}%`;
}

function signed(fraction: number): string {
  const text = percent(fraction);
  return text.startsWith('-') || text === '0%' ? text : `+${text}`;
}

function points(fraction: number): string {
  const p = Math.round(Math.abs(fraction) * 1000) / 10;
  return `${p} point${p === 1 ? '' : 's'}`;
}
