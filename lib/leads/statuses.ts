// Plain values, without zod: the portal's browser code reads them too (test/unit/layering.test.ts).

/** The business's pipeline of accepted quotes (docs/quote-lifecycle.md): where members move a lead. */
export const PIPELINE_STATUSES = ['new', 'contacted', 'won', 'lost'] as const;
export type PipelineStatus = (typeof PIPELINE_STATUSES)[number];
/** What a lead can be: in the pipeline, or `erased` (its personal data erased: it left the pipeline for good). */
export const LEAD_STATUSES = [...PIPELINE_STATUSES, 'erased'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
