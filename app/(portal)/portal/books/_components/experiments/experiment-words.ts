import type { BookDetail } from '../book-queries';
import type { Experiment, ExperimentState } from './experiment-queries';
import { DEFAULT_SURFACES, type ExperimentSurface } from '@/lib/experiments/surfaces';

/** The primary metrics a person chooses from, with what each means in one line. */
export const METRIC_CHOICES = [
  { id: 'revenue_per_quote', label: 'Revenue per quote', meaning: 'Accepted revenue divided by every quote given: price and acceptance together.' },
  { id: 'acceptance_rate', label: 'Acceptance rate', meaning: 'The share of quotes customers accept, whatever the price.' },
  { id: 'committed_revenue', label: 'Committed revenue', meaning: 'Revenue of the jobs customers committed to, per quote given.' },
] as const;
export type MetricChoice = (typeof METRIC_CHOICES)[number]['id'];

const METRIC_NAMES: Record<string, string> = {
  revenue_per_quote: 'Revenue per quote',
  acceptance_rate: 'Acceptance rate',
  committed_revenue: 'Committed revenue',
  committed_revenue_per_quote: 'Committed revenue per quote',
};
export const metricName = (metric: string) => METRIC_NAMES[metric] ?? metric.replaceAll('_', ' ');

/** Where quotes come from, in a pricing person's words; the first three are the service's default. */
export const SURFACE_CHOICES: readonly { id: ExperimentSurface; label: string; meaning: string }[] = [
  { id: 'hosted', label: 'Your quote page', meaning: 'customers quoting on the hosted page' },
  { id: 'api', label: 'Your website and apps', meaning: 'quotes your integrations ask for with an API key' },
  { id: 'account', label: 'Quotes customers commit to', meaning: 'the account surface: the only quotes that are committed' },
  { id: 'member', label: 'Your team’s quotes', meaning: 'quotes your own people make in the portal (off by default: they are not customers)' },
];
export const DEFAULT_SURFACE_CHOICE: readonly ExperimentSurface[] = DEFAULT_SURFACES;

/** "your quote page and your website and apps": the surfaces an experiment covers, in words. */
export function surfacesInWords(surfaces: readonly string[]): string {
  const labels = SURFACE_CHOICES.filter((s) => surfaces.includes(s.id)).map((s) => s.label.charAt(0).toLowerCase() + s.label.slice(1));
  const words = labels.length <= 1 ? (labels[0] ?? 'no quotes') : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Running in blue, the rest grey: never the yellow and green of the Test and Live badges beside them. */
export const STATE_WORDS: Record<ExperimentState, { label: string; running: boolean }> = {
  draft: { label: 'Draft', running: false },
  running: { label: 'Running', running: true },
  stopped: { label: 'Stopped', running: false },
  concluded: { label: 'Concluded', running: false },
};

/** `control` → "A", `variant_1` → "B", `variant_2` → "C"…: the letters the results' sentences use. */
export function armLetter(name: string): string {
  if (name === 'control') return 'A';
  const n = Number(name.replace(/^variant_/, ''));
  return Number.isInteger(n) && n > 0 && n < 26 ? String.fromCharCode(65 + n) : name;
}

/** "v3", or what the control will be when it has not been pinned yet. */
export function armVersion(book: BookDetail, experiment: Experiment, arm: Experiment['arms'][number]): string {
  if (arm.versionId) {
    const number = book.versions.find((v) => v.id === arm.versionId)?.number;
    return number === undefined ? 'a version' : `v${number}`;
  }
  const published = book.publications[experiment.environment];
  return published ? `v${published.number} (published now; fixed at start)` : 'the publication at start';
}

/** "A · control (v3)", "B (v4)". */
export function armTitle(book: BookDetail, experiment: Experiment, arm: Experiment['arms'][number]): string {
  return `${armLetter(arm.name)}${arm.name === 'control' ? ' · control' : ''} (${armVersion(book, experiment, arm)})`;
}

/** The weight as a share of subjects: "50%", "33.33%". */
export const share = (arm: Experiment['arms'][number]) => `${(arm.basisPoints / 100).toLocaleString(undefined, { maximumFractionDigits: 2 })}%`;

export function dateWords(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';
}

/**
 * The service's sentences name arms as the API does (`variant_1`, and `control` in results): the
 * page names them by letter, so a sentence reads like the table beside it ("B brings…", "for A").
 */
export function inLetters(sentence: string, { control = true }: { control?: boolean } = {}): string {
  const lettered = sentence.replace(/\bvariant_[1-9]\d*\b/g, (name) => armLetter(name));
  return control ? lettered.replace(/\bcontrol\b/g, 'A') : lettered;
}

/**
 * A pause's reason as the guardrail words it ("Pause variant_1: its acceptance rate is…"), told
 * as what happened: "B’s acceptance rate is…". Another wording is shown as it is, in letters.
 */
export function pauseReasonWords(reason: string): string {
  const lettered = inLetters(reason, { control: false });
  const told = lettered.match(/^Pause (\S+): its (.*)$/s);
  return told ? `${told[1]}’s ${told[2]}` : lettered;
}

/** The arms the acceptance guardrail paused, with when (an instant that may be a minute ahead). */
export const pausedArms = (experiment: Experiment) =>
  experiment.arms.flatMap((arm) => (arm.pausedAt ? [{ ...arm, pausedAt: arm.pausedAt }] : []));
