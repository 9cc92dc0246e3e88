import type { ServiceError } from '../errors/service-error';

export type Surface = 'standard' | 'account';

export function successResponse(status: number, data: unknown, requestId: string, headers?: HeadersInit): Response {
  return Response.json({ data, requestId }, { status, headers });
}

/** The error body of spec 2.1, or of the account surface (4.3) where every field is a string. */
export function errorResponse(error: ServiceError, requestId: string, surface: Surface): Response {
  return Response.json(errorBody(error, requestId, surface), { status: error.status, headers: error.headers });
}

export function errorBody(error: ServiceError, requestId: string, surface: Surface) {
  return surface === 'account'
    ? { error: { code: error.code, message: error.message, param: error.param, request_id: requestId } }
    : {
        error: {
          code: error.code,
          message: error.message,
          requestId,
          ...(error.details ? { details: error.details } : {}),
        },
      };
}

export const NDJSON = 'application/x-ndjson';

class ClientGone extends Error {}

/** Whether the client asked for a progress stream (`Accept: application/x-ndjson`). */
export function acceptsProgressStream(request: Request): boolean {
  return (request.headers.get('accept') ?? '').toLowerCase().includes(NDJSON);
}

/**
 * A 200 answer whose body is NDJSON: a line per progress report while `run` works, then one
 * line with the envelope `{ data, requestId }`, or with an error body if `run` failed.
 */
export function progressStreamResponse(
  run: (report: (progress: unknown) => Promise<void>) => Promise<unknown>,
  requestId: string,
  onError: (error: unknown) => object,
): Response {
  const encoder = new TextEncoder();
  let gone = false;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const line = (value: unknown) => controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
      try {
        const data = await run(async (progress) => {
          // The client went away: stop working for nobody at the next report.
          if (gone) throw new ClientGone();
          line({ progress });
        });
        line({ data, requestId });
      } catch (error) {
        if (error instanceof ClientGone) return;
        line(onError(error));
      }
      controller.close();
    },
    cancel() {
      gone = true;
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': NDJSON, 'cache-control': 'no-store' } });
}
