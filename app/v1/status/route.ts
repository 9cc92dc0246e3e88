import { defineRoute } from '@/lib/http/define-route';
import { getServiceStatus } from '@/lib/status/service-status';
import { statusContract } from './contract';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(statusContract, async (ctx) => ({ data: await getServiceStatus(ctx), headers: { 'cache-control': 'no-store' } }));
