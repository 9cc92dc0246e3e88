import { defineRoute } from '@/lib/http/define-route';
import { checkReadiness } from '@/lib/receipts/readiness';
import { readinessContract } from './contract';

export const GET = defineRoute(readinessContract, async (ctx) => ({ data: await checkReadiness(ctx), headers: { 'cache-control': 'no-store' } }));
