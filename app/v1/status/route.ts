import { defineRoute } from '@/lib/http/define-route';
import { checkDatabase } from '@/lib/db/check-database';
import { statusContract } from './contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(statusContract, async ({ db, now }) => {
  await checkDatabase(db);
  return { data: { status: 'ok' as const, version: '1.0.0', time: now.toISOString() } };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
