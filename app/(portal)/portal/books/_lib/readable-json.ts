// PostgreSQL's jsonb stores object keys shortest first, so a book comes back with `rules`
// before `offerings` and `when` before `label`. The editor shows keys in reading order.

const BOOK_KEYS = ['formatVersion', 'currency', 'autonomy', 'quoteValidityDays', 'offerings', 'factors', 'rules', 'conditions'];
const ENTITY_KEYS = [
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
  'conditions',
];

function sortKeys(value: object, order: string[]): [string, unknown][] {
  const rank = (key: string) => {
    const i = order.indexOf(key);
    return i === -1 ? order.length : i;
  };
  // Keys not in the list keep their order, after the known ones (sort is stable).
  return Object.entries(value).sort(([a], [b]) => rank(a) - rank(b));
}

function ordered(value: unknown, order: string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => ordered(item, ENTITY_KEYS));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(sortKeys(value, order).map(([key, inner]) => [key, ordered(inner, ENTITY_KEYS)]));
}

/** Pretty JSON of a price book with its keys in reading order; the value is unchanged. */
export function toReadableJson(value: unknown): string {
  return JSON.stringify(ordered(value, BOOK_KEYS), null, 2);
}
