'use client';

import type { AnswerOf, RouteContract } from '@/lib/http/contract';

/** A failed call to our API, with the envelope's code and field messages. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly fields: Record<string, string[]> = {},
    /** The envelope's `details` as sent (a refusal's particulars, e.g. a start's `priceDifference`). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The API said the thing asked for does not exist (or is not visible to this person). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'not_found';
}

/** The error envelope's `error`, as the API sends it. */
export type ApiErrorBody = { code: string; message: string; requestId: string; details?: { fields?: Record<string, string[]>; [detail: string]: unknown } };

/** The ApiError for a failed answer: its envelope's error when it sent one, else the status alone. */
export function apiErrorOf(error: ApiErrorBody | null | undefined, response: Response): ApiError {
  return new ApiError(
    response.status,
    error?.code ?? 'unexpected',
    error?.message ?? `The service answered ${response.status}.`,
    error?.requestId ?? response.headers.get('x-request-id'),
    error?.details?.fields ?? {},
    error?.details ?? {},
  );
}

/** The ApiError for a call that never reached the service. */
export function unreachable(): ApiError {
  return new ApiError(0, 'network', 'Could not reach the service. Check your connection and try again.', null);
}

/**
 * Calls a /v1 route with the portal's session cookie; returns `data` or throws ApiError. The type
 * parameter is the route's contract (a type-only import: `apiFetch<typeof listMembersContract>(…)`),
 * so the answer is typed by the contract's success schema, never restated at the call site.
 */
export async function apiFetch<C extends Pick<RouteContract, 'success'>>(
  path: string,
  init: { method?: string; body?: unknown; idempotencyKey?: string } = {},
): Promise<AnswerOf<C>> {
  let response: Response;
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  // One key per attempt: a double click or a retry after a lost answer replays, never repeats.
  if (init.idempotencyKey) headers['idempotency-key'] = init.idempotencyKey;
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      credentials: 'same-origin',
      headers,
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    });
  } catch {
    throw unreachable();
  }
  const body = (await response.json().catch(() => null)) as { data: AnswerOf<C> } | { error: ApiErrorBody } | null;
  if (!response.ok || !body || !('data' in body)) throw apiErrorOf(body && 'error' in body ? body.error : null, response);
  return body.data;
}

/** Words a business owner understands, for the codes a portal page can meet. */
export function friendlyError(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please try again.';
  switch (error.code) {
    case 'unauthorized':
      return 'Your session has ended. Please sign in again.';
    case 'forbidden':
      return `You don't have permission to do that. ${error.message}`;
    case 'not_business_owner':
      return 'Only an owner of this business can change its members.';
    case 'not_found':
      return "We couldn't find that. It may have been removed, or you may not have access to it.";
    case 'conflict':
      return error.message;
    case 'network':
      return error.message;
    case 'internal_error':
      return `Something went wrong on our side. If it keeps happening, contact support with reference ${error.requestId}.`;
    default:
      return error.message;
  }
}
