import type { ServiceError } from '../errors/service-error';

export type Surface = 'standard' | 'account';

export function successResponse(status: number, data: unknown, requestId: string, headers?: HeadersInit): Response {
  return Response.json({ data, requestId }, { status, headers });
}

/** The error body of spec 2.1, or of the account surface (4.3) where every field is a string. */
export function errorResponse(error: ServiceError, requestId: string, surface: Surface): Response {
  const body =
    surface === 'account'
      ? { error: { code: error.code, message: error.message, param: error.param, request_id: requestId } }
      : {
          error: {
            code: error.code,
            message: error.message,
            requestId,
            ...(error.details ? { details: error.details } : {}),
          },
        };
  return Response.json(body, { status: error.status, headers: error.headers });
}
