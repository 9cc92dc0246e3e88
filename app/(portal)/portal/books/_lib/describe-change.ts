// Field names and values of a price book in the words the portal shows: money as money,
// basis points as percentages, rule clauses as sentences.
import { formatMoney } from '@/app/_components/receipt-view';

const WORDS: Record<string, string> = {
  basePriceMinor: 'base price',
  priceMinor: 'price',
  amountMinor: 'amount',
  basisPoints: 'percentage',
  depositBasisPoints: 'deposit',
  factorIds: 'factors asked',
  offeringIds: 'applies to offerings',
  when: 'applies when',
  requiresInspection: 'needs a site visit',
  whenUnknown: 'when unknown',
  optionId: 'assumes',
  formatVersion: 'format version',
  quoteValidityDays: 'quotes valid for (days)',
};

/** `adjustment.basisPoints` → "adjustment percentage"; `options.large.label` → `option "large" label`. */
export function describeField(field: string): string {
  const parts = field.split('.');
  if (parts[0] === 'options' && parts.length >= 3) return `option "${parts[1]}" ${describeField(parts.slice(2).join('.'))}`;
  return parts.map((part) => WORDS[part] ?? part).join(' ');
}

function money(amountMinor: number, currency: string): string {
  try {
    return formatMoney(amountMinor, currency);
  } catch {
    return `${amountMinor} (minor units)`;
  }
}

const isClause = (value: unknown): value is { factorId: string; optionIds: string[] } =>
  typeof value === 'object' && value !== null && 'factorId' in value && 'optionIds' in value && Array.isArray(value.optionIds);

export function describeValue(field: string, value: unknown, currency: string): string {
  const last = field.split('.').at(-1) ?? field;
  if (value === undefined || value === null) return 'not set';
  if (typeof value === 'number' && last.endsWith('Minor')) return money(value, currency);
  if (typeof value === 'number' && /basisPoints$/i.test(last)) return `${value / 100}%`;
  if (Array.isArray(value) && value.length > 0 && value.every(isClause)) {
    return value.map((clause) => `${clause.factorId} is ${clause.optionIds.join(' or ')}`).join(', and ');
  }
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  if (typeof value === 'string') return `“${value}”`;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return JSON.stringify(value);
}

const COLLECTION_NOUNS: Record<string, string> = { offerings: 'offering', factors: 'factor', rules: 'rule' };

/** Which offering, factor or rule a validation issue's path points into: `rule "difficult_access"`. */
export function describeIssuePlace(artifact: unknown, path: string): string | null {
  const [collection, index] = path.split('.');
  const noun = COLLECTION_NOUNS[collection];
  if (!noun || index === undefined || typeof artifact !== 'object' || artifact === null) return null;
  const list = (artifact as Record<string, unknown>)[collection];
  const entity = Array.isArray(list) ? list[Number(index)] : undefined;
  const id = typeof entity === 'object' && entity !== null ? (entity as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id !== '' ? `${noun} "${id}"` : `${noun} number ${Number(index) + 1}`;
}
