// The examples the event catalogue (lib/event-catalogue/catalogue.ts) shows for each event type: made-up
// ids and values in the shapes the API answers, checked against each type's schema by
// test/api/event-catalogue.integration.test.ts.

export const IDS = {
  workspace: '2f7c5e0a-91d4-4b8e-a3a1-6c0d2b9e4f11',
  project: '8a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  environment: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f',
  book: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
  version: '9b8a7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
  business: '1f55df5f-1ca4-43c0-aafd-f053c2fd2d6f',
  intent: 'ba0ad174-b4ee-4ed5-836f-6b731d1e7715',
  receipt: 'ecf18fe7-651f-4084-a812-6129a4c73df8',
  request: '22b9f720-95b3-4d7f-8d50-90c9f167e2a2',
  key: '4c3b2a19-0817-4f6e-9d5c-4b3a29181706',
  successor: '7d6c5b4a-3928-4170-8f6e-5d4c3b2a1908',
  user: '6e5d4c3b-2a19-4807-b6f5-e4d3c2b1a098',
  member: '3a2b1c0d-9e8f-47a6-b5c4-d3e2f1a0b9c8',
  endpoint: '0a9b8c7d-6e5f-4a3b-8c1d-0e9f8a7b6c5d',
  experiment: '4d3c2b1a-0f9e-4d8c-b7a6-958473625140',
  variant: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
};
export const AT = '2026-11-25T16:45:48.423Z';

export const quoteIntent = (status: string, expiresAt: string | null = null) => ({
  id: IDS.intent,
  workspaceId: IDS.workspace,
  projectId: IDS.project,
  environmentId: IDS.environment,
  bookId: IDS.book,
  bookVersionId: IDS.version,
  status,
  source: 'hosted',
  idempotencyKey: 'auto_af5309b5-cc08-4798-9435-d68e7c5cca50',
  requestCorrelationId: IDS.request,
  inputs: { offeringId: 'window_cleaning', factors: { home_size: 'medium', storeys: '2', access: 'difficult' } },
  expiresAt,
  createdAt: AT,
});
export const experiment = (state: string, startedAt: string, stoppedAt: string | null, winner: { arm: string; versionId: string } | null = null) => ({
  id: IDS.experiment,
  bookId: IDS.book,
  environment: 'live',
  name: 'Spring prices',
  state,
  primaryMetric: 'revenue_per_quote',
  salt: '5c0f3e9a7b214d6e8f90a1b2c3d4e5f6',
  weightUnit: 'percent',
  arms: [
    { name: 'control', versionId: IDS.version, weight: 90, basisPoints: 9000 },
    { name: 'variant_1', versionId: IDS.variant, weight: 10, basisPoints: 1000 },
  ],
  offeringIds: null,
  surfaces: ['hosted', 'api', 'account'],
  maxPriceDifferencePercent: 20,
  pauseWhenAcceptanceDropsPoints: 5,
  createdAt: AT,
  startedAt,
  stoppedAt,
  concludedAt: winner ? stoppedAt : null,
  winner,
});
export const EXAMPLE_SIGNATURE = {
  alg: 'Ed25519',
  kid: 'rsk_20261126_Vq3xT0bk',
  value: '5Tb43-KZEe4l_HJYeht7I_NRqXXaxoOArLtxYzt-bT5nZuTQr4S5RAPAP32Ce0Tn1QnInfbfJbusK2dgjrPZyQ',
};
export const quoteReceipt = (outcome: string, more: Record<string, unknown>) => ({
  id: IDS.receipt,
  quoteIntentId: IDS.intent,
  outcome,
  source: 'hosted',
  bookVersionId: IDS.version,
  computation: null,
  missingInputs: [],
  failure: null,
  idempotencyKey: 'auto_af5309b5-cc08-4798-9435-d68e7c5cca50',
  requestCorrelationId: IDS.request,
  latencyMs: 4,
  createdAt: AT,
  // Receipt format 2: the experiment arm the quote was priced with, null outside one (docs/experiments.md).
  experiment: null,
  // Over the receipt as it stands (docs/receipts.md); this example's value is made up.
  signature: EXAMPLE_SIGNATURE,
  ...more,
});
export const apiKey = (id: string, status: string, revokedAt: string | null = null) => ({
  id,
  name: 'Checkout server',
  environment: 'live',
  status,
  displayPrefix: 'sk_live_Ab3d',
  last4: 'x9Qz',
  scopes: ['accounts:read', 'quote-spec:read', 'simulations:write', 'quotes:write', 'commitments:write', 'logs:read'],
  createdAt: AT,
  revokedAt,
  lastUsedAt: null,
});
export const member = (role: string, status: string) => ({
  id: IDS.member,
  businessId: IDS.business,
  userId: IDS.user,
  email: 'sam@sparkle.example',
  name: 'Sam',
  role,
  status,
  createdAt: AT,
  updatedAt: AT,
});

export const heldQuote = {
  object: 'quote',
  quote_id: 'd4c3b2a1-0f9e-48d7-b6c5-a4b3c2d1e0f9',
  state: 'awaiting_approval',
  disposition: 'hold',
  decision: 'priced',
  pricing_mode: 'instant',
  total: { low_cents: 15525, high_cents: 15525 },
  currency: 'USD',
  book: { version_id: IDS.version },
  message: 'The quote is held for the business to review before it is sent.',
  unpriced_reason: null,
  created: AT,
  expires_at: '2026-12-25T16:45:48.423Z',
  signature: EXAMPLE_SIGNATURE,
};
