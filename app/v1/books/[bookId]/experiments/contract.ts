import { z } from 'zod';
import { defineContract, type OperationTag } from '@/lib/http/contract';
import { createExperimentRequestSchema, experimentResultsSchema, experimentSchema, promoteExperimentRequestSchema } from '@/lib/experiments/schemas';

// Experiments on a book (docs/experiments.md): members only. Reading needs what reading the book
// does; creating, starting, stopping and promoting need `books:publish`, the permission that changes prices.

const tags: OperationTag[] = ['Experiments'];
const bookParams = z.object({ bookId: z.uuid() });
const experimentParams = z.object({ bookId: z.uuid(), experimentId: z.uuid() });
const one = z.object({ experiment: experimentSchema });

export const createExperimentContract = defineContract({
  operationId: 'createExperiment',
  method: 'POST',
  path: '/v1/books/{bookId}/experiments',
  summary: 'Create a draft experiment on the book in Test or Live (`books:publish`)',
  description:
    'Variants are other versions of the same book; the control is the environment’s publication, pinned when the experiment starts. ' +
    'Weights are integers summing to 100 (`percent`) or 10,000 (`basis_points`). The salt that keys assignment is drawn now and never changes.',
  tags,
  auth: 'session',
  params: bookParams,
  body: createExperimentRequestSchema,
  success: { status: 201, description: 'The draft experiment.', schema: one },
  errors: ['unauthorized', 'forbidden', 'not_found', 'invalid_request'],
});

export const listExperimentsContract = defineContract({
  operationId: 'listExperiments',
  method: 'GET',
  path: '/v1/books/{bookId}/experiments',
  summary: 'The book’s experiments in both environments, newest first',
  tags,
  auth: 'session',
  params: bookParams,
  success: { status: 200, description: 'The experiments.', schema: z.object({ experiments: z.array(experimentSchema) }) },
  errors: ['unauthorized', 'not_found'],
});

export const getExperimentContract = defineContract({
  operationId: 'getExperiment',
  method: 'GET',
  path: '/v1/books/{bookId}/experiments/{experimentId}',
  summary: 'One experiment: its published definition (id, salt, arms), from which a receipt’s arm is recomputed offline',
  tags,
  auth: 'session',
  params: experimentParams,
  success: { status: 200, description: 'The experiment.', schema: one },
  errors: ['unauthorized', 'not_found'],
});

export const startExperimentContract = defineContract({
  operationId: 'startExperiment',
  method: 'POST',
  path: '/v1/books/{bookId}/experiments/{experimentId}/start',
  summary: 'Start a draft experiment (`books:publish`): its control is pinned to the version published now',
  description: 'From the commit on, quotes of the book in the experiment’s environment (and offerings) are priced with their subject’s arm. 409 `conflict` when the experiment is not a draft, nothing is published in its environment, or another experiment runs there.',
  tags,
  auth: 'session',
  params: experimentParams,
  success: { status: 200, description: 'The running experiment.', schema: one },
  errors: ['unauthorized', 'forbidden', 'not_found', 'conflict'],
});

export const stopExperimentContract = defineContract({
  operationId: 'stopExperiment',
  method: 'POST',
  path: '/v1/books/{bookId}/experiments/{experimentId}/stop',
  summary: 'Stop a running experiment (`books:publish`): every quote is priced with the publication again',
  tags,
  auth: 'session',
  params: experimentParams,
  success: { status: 200, description: 'The stopped experiment.', schema: one },
  errors: ['unauthorized', 'forbidden', 'not_found', 'conflict'],
});

export const getExperimentResultsContract = defineContract({
  operationId: 'getExperimentResults',
  method: 'GET',
  path: '/v1/books/{bookId}/experiments/{experimentId}/results',
  summary: 'The experiment’s results: each arm’s quotes, acceptances and revenue, and each variant against the control with its 95% interval and verdict',
  description:
    'Counted since the start: priced quotes by the arm their receipt records, acceptances of those quotes, leads now `won`. ' +
    'Intervals are anytime-valid, so results may be read as often as one likes (docs/experiments.md, "Results").',
  tags,
  auth: 'session',
  params: experimentParams,
  success: { status: 200, description: 'The results.', schema: z.object({ results: experimentResultsSchema }) },
  errors: ['unauthorized', 'not_found'],
});

export const promoteExperimentContract = defineContract({
  operationId: 'promoteExperiment',
  method: 'POST',
  path: '/v1/books/{bookId}/experiments/{experimentId}/promote',
  summary: 'Promote an arm of a running or stopped experiment and conclude it (`books:publish`)',
  description:
    'A variant’s version is published in the experiment’s environment as `POST /v1/books/{bookId}/publications` publishes: its impact is measured and kept in the publication record, ' +
    'and on Live, when the safeguard asks, the answer is 400 with `details.fields.confirmation`, `details.impact` and `details.confirmationPhrase` until the request carries that phrase as `confirmation` (nothing changes until then). ' +
    'Promoting `control` publishes nothing. Either way the experiment is `concluded` with its `winner`, no quote is priced by it any more, and `experiment.concluded` is emitted, all in one commit. ' +
    '409 `conflict` when the experiment is a draft or already concluded.',
  tags,
  auth: 'session',
  params: experimentParams,
  body: promoteExperimentRequestSchema,
  success: { status: 200, description: 'The concluded experiment.', schema: one },
  errors: ['unauthorized', 'forbidden', 'not_found', 'invalid_request', 'conflict'],
});
