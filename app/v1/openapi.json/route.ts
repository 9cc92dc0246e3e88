import { defineRoute } from '@/lib/http/define-route';
import { buildOpenApiDocument } from '@/lib/http/openapi';
import { contracts } from '../contracts';
import { openApiContract } from './contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export const GET = defineRoute(openApiContract, async () => {
  document ??= buildOpenApiDocument(contracts);
  return { response: Response.json(document) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
