import { defineRoute } from '@/lib/http/define-route';
import { buildOpenApiDocument } from '@/lib/http/openapi';
import { v1Contracts } from '../contracts';
import { openApiContract } from './contract';

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export const GET = defineRoute(openApiContract, async () => {
  document ??= buildOpenApiDocument(v1Contracts());
  return { response: Response.json(document) };
});
