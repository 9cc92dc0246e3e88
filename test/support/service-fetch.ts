import { inject } from 'vitest';

/**
 * How a test reaches the service: in-process through the API's router (no build, no server),
 * or over real HTTP to a production server when the test project provides one (`baseUrl`:
 * the `http` project, for what lives at the socket, and the pgbouncer project).
 */

/** The origin in-process requests are made on; the in-process setup gives NEXTAUTH_URL the same. */
export const IN_PROCESS_ORIGIN = 'http://localhost';

type ApiRouter = { handle(request: Request): Promise<Response> };
let router: Promise<ApiRouter> | undefined;

/** The service's origin: the server's, or the in-process one. */
export function serviceOrigin(): string {
  return inject('baseUrl') ?? IN_PROCESS_ORIGIN;
}

/** `fetch` against the service, whichever way this project reaches it. */
export async function serviceFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const baseUrl = inject('baseUrl');
  if (baseUrl) return fetch(`${baseUrl}${path}`, init);
  router ??= import('../../app/api-router').then((m) => m.apiRouter);
  const headers = new Headers(init.headers);
  // A client always says who it is (fetch does); the request log keeps it. And which host it
  // asked, as every HTTP/1.1 request does (a cookie write's same-origin check reads it).
  if (!headers.has('user-agent')) headers.set('user-agent', 'in-process-test');
  if (!headers.has('host')) headers.set('host', new URL(IN_PROCESS_ORIGIN).host);
  const request = new Request(`${IN_PROCESS_ORIGIN}${path}`, { ...init, headers, ...(init.body ? { duplex: 'half' } : {}) } as RequestInit);
  const answer = await (await router).handle(request);
  // A stream that does not end (server-sent events) is handed over as it is, for the test to read and hang up.
  if (/^text\/event-stream/.test(answer.headers.get('content-type') ?? '')) return answer;
  // Answers as a server would send them: the body read once, whole.
  const bodiless = request.method === 'HEAD' || [204, 205, 304].includes(answer.status);
  const response = new Response(bodiless ? null : await answer.arrayBuffer(), { status: answer.status, statusText: answer.statusText, headers: answer.headers });
  // As fetch's: the URL the request went to, after the URL parser resolved it.
  return Object.defineProperty(response, 'url', { value: request.url });
}
