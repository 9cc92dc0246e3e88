import { z } from 'zod';
import { quoteComputationSchema } from '../pricing/computation-schema';

const publicationSchema = z
  .object({ versionId: z.uuid(), number: z.number().int(), publishedAt: z.iso.datetime() })
  .nullable();

export const bookSummarySchema = z
  .object({
    id: z.uuid(),
    projectId: z.uuid(),
    key: z.string(),
    name: z.string(),
    isPrimary: z.boolean(),
    latestVersion: z.number().int().nullable(),
    hasDraft: z.boolean().describe('A saved draft that differs from the newest version (none yet, or other content).'),
    publications: z.object({ test: publicationSchema, live: publicationSchema }),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'BookSummary' });

export const bookVersionSummarySchema = z
  .object({
    id: z.uuid(),
    number: z.number().int(),
    artifactHash: z.string(),
    createdBy: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'BookVersionSummary' });

/** A draft as saved and read back: a JSON object, validated as an artifact when it is published, not when it is saved. */
export const draftArtifactSchema = z.record(z.string(), z.unknown());

export const bookDetailSchema = bookSummarySchema
  .extend({ draft: draftArtifactSchema.nullable(), versions: z.array(bookVersionSummarySchema) })
  .meta({ id: 'BookDetail' });

export const bookVersionSchema = bookVersionSummarySchema
  .extend({ bookId: z.uuid(), artifact: z.unknown() })
  .meta({ id: 'BookVersion' });

/** Validation problems of a draft, by dotted path (as in `details.fields`). */
export const artifactIssuesSchema = z.record(z.string(), z.array(z.string())).meta({ id: 'ArtifactIssues' });

export const createBookRequestSchema = z
  .strictObject({
    projectId: z.uuid(),
    key: z.string().regex(/^[a-z0-9][a-z0-9-]{0,79}$/, 'lowercase letters, digits and "-", up to 80'),
    name: z.string().trim().min(1).max(200),
    makePrimary: z.boolean().optional(),
  })
  .meta({ id: 'CreateBookRequest' });

export const previewRequestSchema = z
  .strictObject({
    /** An artifact to try; the saved draft when omitted. */
    artifact: z.unknown().optional(),
    offeringId: z.string().max(80),
    factors: z.record(z.string().max(80), z.string().max(200).nullable()).default({}),
  })
  .meta({ id: 'PreviewRequest' });

export const previewResponseSchema = z
  .object({
    valid: z.boolean(),
    issues: artifactIssuesSchema,
    outcome: z.enum(['succeeded', 'requires_input', 'failed']).nullable(),
    computation: quoteComputationSchema.nullable(),
    missingInputs: z.array(z.string()),
    failure: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .meta({ id: 'PreviewResult' });

export const publishRequestSchema = z
  .strictObject({
    versionId: z.uuid(),
    environment: z.enum(['test', 'live']),
    impactAsOf: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: 'The end of the 7-day impact window shown to the member (the impact run\'s `window.to`, at most 15 minutes old); now when omitted. The publication record keeps that impact.' }),
    confirmation: z
      .string()
      .max(100)
      .optional()
      .meta({ description: 'Needed on Live when the safeguard asks for it: `publish v<number>`.' }),
  })
  .meta({ id: 'PublishRequest' });

export type BookSummary = z.infer<typeof bookSummarySchema>;
