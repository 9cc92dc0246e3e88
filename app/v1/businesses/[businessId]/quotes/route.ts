import { defineRoute } from '@/lib/http/define-route';
import { createMemberQuote } from '@/lib/quotes/create-member-quote';
import { createMemberQuoteContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(
  createMemberQuoteContract,
  async ({ db, principal, params, body, requestId, now, startedAt, annotate }) => {
    const { result, replayed, ...scope } = await createMemberQuote(
      { db, requestId, now, startedAt },
      principal,
      params.businessId,
      body,
    );
    annotate(scope);
    return { data: result, headers: replayed ? { 'idempotent-replayed': 'true' } : undefined };
  },
);

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST']);
