import { defineRoute } from '@/lib/http/define-route';
import { receiptSigningKeySet } from '@/lib/receipts/signing-keys';
import { listReceiptSigningKeysContract } from './contract';

export const GET = defineRoute(listReceiptSigningKeysContract, async (ctx) => ({
  data: await receiptSigningKeySet(ctx),
  headers: { 'cache-control': 'public, max-age=300' },
}));
