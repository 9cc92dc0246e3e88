import { defineRoute } from '@/lib/http/define-route';
import { buildOpenApiDocument } from '@/lib/http/openapi';
import { contracts } from '../contracts';
import { openApiContract } from './contract';

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export const GET = defineRoute(openApiContract, async () => {
  document ??= buildOpenApiDocument(contracts);
  return { response: Response.json(document) };
});
