import { defineRoute } from '@/lib/http/define-route';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';
import { receiptSigningKeySet } from '@/lib/receipts/signing-keys';
import { listReceiptSigningKeysContract } from './contract';

export const GET = defineRoute(listReceiptSigningKeysContract, async (ctx) => ({
  data: await receiptSigningKeySet(ctx),
  headers: { 'cache-control': 'public, max-age=300' },
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
