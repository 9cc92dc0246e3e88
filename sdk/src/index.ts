export { createClient, QuotePricingClient, SDK_VERSION, type CallInit, type CallResult, type ClientOptions, type OperationData, type PageItem, type PaginatedOperationId } from './client.js';
export { isQuotePricingError, QuotePricingConnectionError, QuotePricingError, type ErrorCode, type ErrorCodeOf } from './errors.js';
export { type ListPromise, type ParamsOf, type RequestOptions, type Resources } from './resources.js';
export { RESOURCES, SCOPED_RESOURCES } from './generated/resources.js';
export { WEBHOOK_EVENT_TYPES, type WebhookEvent, type WebhookEventsByType, type WebhookEventType } from './generated/events.js';
export { OPERATIONS, type OperationId } from './generated/operations.js';
export type { components, operations, paths } from './generated/openapi.js';
import { cachedKeySet, verifyReceipt } from './receipts.js';
import { signWebhook, verifyWebhook } from './webhooks.js';
export {
  type KeySetSource,
  type ReceiptCheck,
  type ReceiptCheckWithExperiment,
  type ReceiptKeySet,
  type ReceiptSigningKey,
  type SignedDocument,
  type VerifyReceiptOptions,
} from './receipts.js';
export { SIGNATURE_HEADER, WebhookVerificationError, type WebhookVerificationFailure } from './webhooks.js';

/** Deliveries: `webhooks.verify(rawBody, headers, secret, { toleranceSeconds })`. */
export const webhooks = { verify: verifyWebhook, sign: signWebhook };

/** Receipts: `receipts.verify(receipt, keySet | client.receiptKeys, { experiment, subject }?)`, offline once the keys are known. */
export const receipts = { verify: verifyReceipt, cachedKeySet };

export {
  ASSIGNMENT_BUCKETS,
  assignArm,
  checkReceiptAssignment,
  subjectDigestOf,
  type AssignmentArm,
  type AssignmentDefinition,
  type ExperimentCheck,
  type ReceiptExperiment,
  type AccountQuoteExperiment,
  type DocumentWithExperiment,
} from './experiments.js';
