import type { BookArtifactInput } from '@/lib/pricing/book-artifact';

/** What the editor of a new book (no draft, no versions) starts from: the smallest valid book. */
export const starterArtifact = {
  formatVersion: 1,
  currency: 'USD',
  autonomy: 'autonomous',
  offerings: [{ id: 'first_offering', label: 'My first offering', basePriceMinor: 10000, factorIds: [] }],
  factors: [],
  rules: [],
  conditions: [],
} satisfies BookArtifactInput;
