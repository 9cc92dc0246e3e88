import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import { serviceFetch, serviceOrigin } from './service-fetch';

export type ApiResponse<T = any> = { status: number; headers: Headers; body: T; text: string };

type Validator = (method: string, path: string, status: number, body: unknown) => void;
let validatorPromise: Promise<Validator> | undefined;

/**
 * Checks every response the integration tests receive against the service's own OpenAPI
 * document: status documented for the route, body valid against its schema.
 */
async function loadValidator(): Promise<Validator> {
  const document = (await (await serviceFetch('/v1/openapi.json')).json()) as {
    paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(document, 'openapi');
  const routes = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  const pointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');
  return (method, path, status, body) => {
    const route = routes.find((r) => r.pattern.test(path));
    if (!route) return; // unknown paths: the catch-all answers 404 in the standard envelope
    const operation = document.paths[route.template][method.toLowerCase()];
    expect(operation, `${method} ${route.template} is in the OpenAPI document`).toBeDefined();
    const response = operation.responses[String(status)];
    expect(response, `${method} ${route.template} documents status ${status}`).toBeDefined();
    if (!response.content) return;
    const ref = `openapi#/paths/${pointer(route.template)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
    const valid = ajv.validate({ $ref: ref }, body);
    expect(valid ? null : ajv.errorsText(ajv.errors), `${method} ${path} ${status} matches the OpenAPI schema`).toBeNull();
  };
}

export type RequestOptions = { body?: unknown; rawBody?: string; key?: string; headers?: Record<string, string> };

/** A request to the service under test (test/support/service-fetch.ts); every answer is checked against the OpenAPI document. */
export async function api<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  validatorPromise ??= loadValidator();
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await serviceFetch(path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  (await validatorPromise)(method, new URL(path, serviceOrigin()).pathname, response.status, parsed);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}
