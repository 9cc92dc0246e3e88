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
 * Runs `run` and answers with NDJSON once it reports progress: a line per report, then one line
 * with the envelope `{ data, requestId }`, or with an error body if `run` failed later. Until
 * the first report nothing is sent, so a refusal found before it (a version that does not
 * exist) is thrown to the caller and answered with its own status; a `run` that finishes
 * without reporting is answered by `plain`.
 */
export async function progressStreamResponse(
  run: (report: (progress: unknown) => Promise<void>) => Promise<unknown>,
  options: { requestId: string; plain: (data: unknown) => Response; errorLine: (error: unknown) => object },
): Promise<Response> {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let gone = false;
  let streaming = false;
  let startStreaming!: () => void;
  const started = new Promise<void>((resolve) => (startStreaming = resolve));
  const body = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => void (gone = true),
  });
  const line = (value: unknown) => {
    if (!gone) controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
  };
  const end = () => {
    if (!gone) controller.close();
  };
  const work = run(async (progress) => {
    // The client went away: stop working for nobody at the next report.
    if (gone) throw new ClientGone();
    streaming = true;
    line({ progress });
    startStreaming();
  });
  await Promise.race([started, work.catch(() => undefined)]);
  if (!streaming) return options.plain(await work);
  work.then(
    (data) => {
      line({ data, requestId: options.requestId });
      end();
    },
    (error: unknown) => {
      if (!(error instanceof ClientGone)) line(options.errorLine(error));
      end();
    },
  );
  return new Response(body, { status: 200, headers: { 'content-type': NDJSON, 'cache-control': 'no-store' } });
}
