// PostgreSQL's jsonb stores object keys shortest first, so a book comes back with `rules`
// before `offerings` and `when` before `label`. The editor shows keys in reading order.

const KEY_ORDER = [
  'formatVersion',
  'currency',
  'autonomy',
  'offerings',
  'factors',
  'rules',
  'conditions',
  'id',
  'label',
  'phase',
  'description',
  'basePriceMinor',
  'priceMinor',
  'factorIds',
  'offeringIds',
  'when',
  'factorId',
  'optionIds',
  'required',
  'options',
  'requiresInspection',
  'whenUnknown',
  'action',
  'optionId',
  'adjustment',
  'reduction',
  'type',
  'amountMinor',
  'basisPoints',
  'limit',
  'depositBasisPoints',
];
const rank = new Map(KEY_ORDER.map((key, i) => [key, i]));

function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (typeof value !== 'object' || value === null) return value;
  // Keys not in the list keep their order, after the known ones (sort is stable).
  const entries = Object.entries(value).sort(([a], [b]) => (rank.get(a) ?? KEY_ORDER.length) - (rank.get(b) ?? KEY_ORDER.length));
  return Object.fromEntries(entries.map(([key, inner]) => [key, ordered(inner)]));
}

/** Pretty JSON of a price book with its keys in reading order; the value is unchanged. */
export function toReadableJson(value: unknown): string {
  return JSON.stringify(ordered(value), null, 2);
}
