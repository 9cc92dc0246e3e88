import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiRouter } from '../../app/api-router';
// @ts-expect-error: plain JavaScript, shared with scripts/serve.mjs
import { ApiServerResponse, answeredAtEdge, configureServer, httpTimeouts, serveApi } from '../../scripts/http-edge.mjs';

export type ApiServer = { url: string; stop(): Promise<void> };

/**
 * The API's router served over real HTTP by this process, through the production edge
 * (scripts/http-edge.mjs): for clients that must be given a URL (the SDK, a packed program),
 * without a build or a server process. The job runner is not started: tests drive the jobs.
 */
export async function startApiServer(): Promise<ApiServer> {
  const server = http.createServer({ ServerResponse: ApiServerResponse }, (request, response) => {
    if (!answeredAtEdge(request, response)) void serveApi(apiRouter, request, response);
  });
  configureServer(server, httpTimeouts(), { router: async () => apiRouter });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
