import { z } from 'zod';
import {
  artifactIssuesSchema,
  bookDetailSchema,
  bookSummarySchema,
  bookVersionSchema,
  bookVersionSummarySchema,
  createBookRequestSchema,
  draftArtifactSchema,
  previewRequestSchema,
  previewResponseSchema,
  publishRequestSchema,
} from '@/lib/books/schemas';
import { defineContract, type OperationTag } from '@/lib/http/contract';
import { impactRequestSchema, impactResponseSchema, publicationRecordSchema } from '@/lib/books/impact-schemas';
import { timeIdCursorSchema } from '@/lib/db/cursors';

const tags: OperationTag[] = ['Books'];
const bookParams = z.object({ bookId: z.uuid() });
/** Artifacts may hold up to 20,000 rules. */
export const ARTIFACT_BYTES = 5_000_000;

export const listBooksContract = defineContract({
  operationId: 'listBooks',
  method: 'GET',
  path: '/v1/books',
  summary: 'Books of your workspaces, with what is published where',
  tags,
  auth: 'session',
  query: z.object({ projectId: z.uuid().optional() }),
  success: { status: 200, description: 'The books.', schema: z.object({ books: z.array(bookSummarySchema) }) },
  errors: ['unauthorized', 'invalid_request'],
});

export const createBookContract = defineContract({
  operationId: 'createBook',
  method: 'POST',
  path: '/v1/books',
  summary: 'Create a book (`books:edit`)',
  tags,
  auth: 'session',
  body: createBookRequestSchema,
  success: { status: 201, description: 'The new, empty book.', schema: z.object({ book: bookDetailSchema }) },
  errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'invalid_request'],
});

export const getBookContract = defineContract({
  operationId: 'getBook',
  method: 'GET',
  path: '/v1/books/{bookId}',
  summary: 'A book with its draft, versions and publications',
  tags,
  auth: 'session',
  params: bookParams,
  success: { status: 200, description: 'The book.', schema: z.object({ book: bookDetailSchema }) },
  errors: ['unauthorized', 'not_found'],
});

export const saveDraftContract = defineContract({
  operationId: 'saveBookDraft',
  method: 'PUT',
  path: '/v1/books/{bookId}/draft',
  summary: 'Save the draft artifact (`books:edit`); answers what would stop it publishing',
  tags,
  auth: 'session',
  params: bookParams,
  body: z.strictObject({ artifact: draftArtifactSchema }).meta({ id: 'SaveDraftRequest' }),
  maxBodyBytes: ARTIFACT_BYTES,
  success: { status: 200, description: 'Saved; `issues` lists validation problems by field.', schema: z.object({ valid: z.boolean(), issues: artifactIssuesSchema }) },
  errors: ['unauthorized', 'forbidden', 'not_found', 'invalid_request', 'payload_too_large'],
});

export const previewContract = defineContract({
  operationId: 'previewDraft',
  method: 'POST',
  path: '/v1/books/{bookId}/preview',
  summary: 'Price a quote against the draft (or a given artifact) without storing anything',
  tags,
  auth: 'session',
  params: bookParams,
  body: previewRequestSchema,
  maxBodyBytes: ARTIFACT_BYTES,
  success: { status: 200, description: 'The outcome, or why the artifact is invalid.', schema: previewResponseSchema },
  errors: ['unauthorized', 'not_found', 'invalid_request', 'payload_too_large'],
});

export const createVersionContract = defineContract({
  operationId: 'createBookVersion',
  method: 'POST',
  path: '/v1/books/{bookId}/versions',
  summary: 'Freeze the draft (or a given artifact) into the next immutable version (`books:publish`)',
  tags,
  auth: 'session',
  params: bookParams,
  body: z.strictObject({ artifact: z.unknown().optional() }).default({}).meta({ id: 'CreateVersionRequest' }),
  maxBodyBytes: ARTIFACT_BYTES,
  success: { status: 201, description: 'The new version.', schema: z.object({ version: bookVersionSummarySchema }) },
  errors: ['unauthorized', 'forbidden', 'not_found', 'invalid_request', 'payload_too_large'],
});

export const getVersionContract = defineContract({
  operationId: 'getBookVersion',
  method: 'GET',
  path: '/v1/books/{bookId}/versions/{versionId}',
  summary: 'One version with its artifact',
  tags,
  auth: 'session',
  params: z.object({ bookId: z.uuid(), versionId: z.uuid() }),
  success: { status: 200, description: 'The version.', schema: z.object({ version: bookVersionSchema }) },
  errors: ['unauthorized', 'not_found'],
});

export const publishContract = defineContract({
  operationId: 'publishBookVersion',
  method: 'POST',
  path: '/v1/books/{bookId}/publications',
  summary: 'Publish a version to Test or Live (`books:publish`): the only way a price changes',
  description:
    'Measures the version\'s impact on the last 7 days of quotes in the environment and keeps it in the publication\'s audit record. ' +
    'On Live, when more of those quotes than the business\'s safeguard allows would change by more than its threshold, the answer is ' +
    '400 with `details.fields.confirmation`, `details.impact` and `details.confirmationPhrase` until the request carries that phrase as `confirmation`. ' +
    'While an experiment runs on the book in that environment the answer is 409 `conflict` with `details.experimentId`: stop it or promote an arm first.',
  tags,
  auth: 'session',
  params: bookParams,
  body: publishRequestSchema,
  success: { status: 200, description: 'The book with its new publications.', schema: z.object({ book: bookDetailSchema }) },
  errors: ['unauthorized', 'forbidden', 'not_found', 'invalid_request', 'conflict'],
});

export const impactContract = defineContract({
  operationId: 'measureDraftImpact',
  method: 'POST',
  path: '/v1/books/{bookId}/impact',
  summary: 'Re-price recent real quote requests against a draft or version, before publishing it (`books:publish`)',
  description:
    'Takes the distinct requests (answers and the version that priced them) of the book in one environment and window, ' +
    'prices each against the draft, an artifact or a version, and compares it with what the version that answered it gave. ' +
    'Nothing is stored. Send `Accept: application/x-ndjson` to receive progress lines while it runs.',
  tags,
  auth: 'session',
  params: bookParams,
  body: impactRequestSchema,
  maxBodyBytes: ARTIFACT_BYTES,
  idempotent: { exempt: 'a measurement that stores nothing and streams its progress: a retry measures again, which is what a retry wants' },
  progress: {
    schema: z.object({ done: z.number().int(), total: z.number().int() }).meta({ id: 'ImpactProgress', description: 'Quotes counted so far, of all quotes in the window.' }),
    description: 'With `Accept: application/x-ndjson`: one `{ progress }` line per batch, then the envelope, or an error body, on the last line. A refusal found before the first line (a version that does not exist) keeps its own status.',
  },
  success: { status: 200, description: 'The impact, or why the artifact is invalid.', schema: impactResponseSchema },
  errors: ['unauthorized', 'forbidden', 'not_found', 'invalid_request', 'payload_too_large'],
});

export const listPublicationsContract = defineContract({
  operationId: 'listBookPublications',
  method: 'GET',
  path: '/v1/books/{bookId}/publications',
  summary: 'The book\'s publications, newest first: who published which version where, and the impact they were shown',
  tags,
  auth: 'session',
  params: bookParams,
  query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20), cursor: timeIdCursorSchema.optional() }),
  success: {
    status: 200,
    description: 'One page; pass `nextCursor` as `cursor` for the next.',
    schema: z.object({ publications: z.array(publicationRecordSchema), nextCursor: z.string().nullable() }),
  },
  errors: ['unauthorized', 'not_found', 'invalid_request'],
});
