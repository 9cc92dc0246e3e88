'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnswerOf } from '@/lib/http/contract';
import type { CreateExperimentInput, PromoteExperimentRequest } from '@/lib/experiments/schemas';
import type {
  createExperimentContract,
  getExperimentContract,
  getExperimentResultsContract,
  listExperimentsContract,
  promoteExperimentContract,
  startExperimentContract,
  stopExperimentContract,
} from '@/app/v1/books/[bookId]/experiments/contract';
import { ApiError, apiFetch } from '../../../../_components/api';

// The experiments routes' answers, typed by their contract (app/v1/books/[bookId]/experiments/contract.ts).
export type Experiment = AnswerOf<typeof listExperimentsContract>['experiments'][number];
export type ExperimentState = Experiment['state'];

/** What the portal sends to create one: weights in percent, the metric chosen; defaulted settings optional. */
export type NewExperiment = Omit<CreateExperimentInput, 'weightUnit'>;

// The results route's answer, as its contract types it.
export type ExperimentResults = AnswerOf<typeof getExperimentResultsContract>['results'];
export type ArmResult = ExperimentResults['arms'][number];
export type ArmComparison = ExperimentResults['comparisons'][number];
export type Interval = NonNullable<ArmComparison['absolute']>;

// Under ['books', bookId], so that publishing (which invalidates ['books']) refreshes them too.
const listKey = (bookId: string) => ['books', bookId, 'experiments'] as const;
const oneKey = (bookId: string, experimentId: string) => ['books', bookId, 'experiments', experimentId] as const;
const base = (bookId: string) => `/v1/books/${bookId}/experiments`;

export function useExperiments(bookId: string) {
  return useQuery({
    queryKey: listKey(bookId),
    queryFn: () => apiFetch<typeof listExperimentsContract>(base(bookId)).then((d) => d.experiments),
  });
}

export function useExperiment(bookId: string, experimentId: string) {
  return useQuery({
    queryKey: oneKey(bookId, experimentId),
    queryFn: () => apiFetch<typeof getExperimentContract>(`${base(bookId)}/${experimentId}`).then((d) => d.experiment),
  });
}

/**
 * The results of a started experiment; `null` when the service has none to give yet (the results
 * route answers 404 until quotes are priced in the experiment, or where it is not deployed).
 * Asked again every minute while the experiment runs.
 */
export function useExperimentResults(bookId: string, experiment: Experiment) {
  return useQuery({
    queryKey: [...oneKey(bookId, experiment.id), 'results'],
    queryFn: () =>
      apiFetch<typeof getExperimentResultsContract>(`${base(bookId)}/${experiment.id}/results`)
        .then((d) => d.results)
        .catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        }),
    enabled: experiment.state !== 'draft',
    refetchInterval: experiment.state === 'running' ? 60_000 : false,
  });
}

/**
 * Whether this service promotes an arm (POST …/promote): a GET of the route answers 405 when it
 * exists and 404 when it does not, so the button shows only where it can work.
 */
export function usePromoteAvailable(bookId: string, experimentId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['experiment-promote-route', bookId, experimentId],
    queryFn: async () => {
      try {
        const response = await fetch(`${base(bookId)}/${experimentId}/promote`, { method: 'GET', credentials: 'same-origin' });
        return response.status !== 404;
      } catch {
        return false;
      }
    },
    enabled,
    staleTime: Infinity,
  });
}

export function useCreateExperiment(bookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: NewExperiment) =>
      apiFetch<typeof createExperimentContract>(base(bookId), {
        method: 'POST',
        body: { ...input, weightUnit: 'percent' },
        idempotencyKey: crypto.randomUUID(),
      }).then((d) => d.experiment),
    onSuccess: (experiment) => {
      client.setQueryData(oneKey(bookId, experiment.id), experiment);
      return client.invalidateQueries({ queryKey: listKey(bookId) });
    },
  });
}

/**
 * Start or stop: the answer is the experiment as it now is; the book's publications change with it.
 * A refusal (409) reads the book and its experiments again before it is shown, so that the page
 * can say why from what is true now (nothing published, another one running, already started).
 */
export function useExperimentAction(bookId: string, experimentId: string, action: 'start' | 'stop') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<typeof startExperimentContract | typeof stopExperimentContract>(`${base(bookId)}/${experimentId}/${action}`, { method: 'POST', idempotencyKey: crypto.randomUUID() }).then(
        (d) => d.experiment,
      ),
    onSuccess: (experiment) => {
      client.setQueryData(oneKey(bookId, experimentId), experiment);
      return client.invalidateQueries({ queryKey: ['books', bookId] });
    },
    onError: (error) => (error instanceof ApiError && error.status === 409 ? client.invalidateQueries({ queryKey: ['books', bookId] }) : undefined),
  });
}

/** Promote an arm: its version becomes the environment's publication, and the experiment ends (the answer: it, concluded). */
export function usePromote(bookId: string, experimentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: PromoteExperimentRequest) =>
      apiFetch<typeof promoteExperimentContract>(`${base(bookId)}/${experimentId}/promote`, { method: 'POST', body: input, idempotencyKey: crypto.randomUUID() }).then(
        (d) => d.experiment,
      ),
    onSuccess: (experiment) => {
      client.setQueryData(oneKey(bookId, experimentId), experiment);
      return client.invalidateQueries({ queryKey: ['books'] });
    },
  });
}
