import { v7 as uuidv7 } from 'uuid';

/**
 * A request's id (`x-request-id`, the request log's key, a quote's correlation id): a UUIDv7,
 * whose first 48 bits are the millisecond it was made, so that the request log, partitioned by
 * day, finds a row by its id in the day it names instead of in every day.
 */
export function newRequestId(): string {
  return uuidv7();
}

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** When a request id made by newRequestId was made; null for any other id (older ids were v4). */
export function requestIdTime(requestId: string): Date | null {
  if (!V7.test(requestId)) return null;
  return new Date(parseInt(requestId.slice(0, 8) + requestId.slice(9, 13), 16));
}
