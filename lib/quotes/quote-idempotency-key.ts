import { ServiceError } from '../errors/service-error';

/**
 * A quote's idempotency key: the body's `idempotencyKey` or the `Idempotency-Key` header,
 * whichever is sent; two different keys in one request are refused rather than one chosen.
 */
export function quoteIdempotencyKey(
  body: { idempotencyKey?: string },
  headers: { 'idempotency-key'?: string },
): string | undefined {
  const header = headers['idempotency-key'];
  if (header !== undefined && body.idempotencyKey !== undefined && header !== body.idempotencyKey) {
    const message = 'differs from the Idempotency-Key header: send one key, or the same in both';
    throw new ServiceError('invalid_quote_request', `Invalid body: idempotencyKey: ${message}`, {
      details: { fields: { idempotencyKey: [message] } },
      param: 'idempotencyKey',
    });
  }
  return body.idempotencyKey ?? header;
}
