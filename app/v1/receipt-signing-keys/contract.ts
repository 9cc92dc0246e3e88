import { defineContract } from '@/lib/http/contract';
import { receiptSigningKeySetSchema } from '@/lib/receipts/schemas';

export const listReceiptSigningKeysContract = defineContract({
  operationId: 'listReceiptSigningKeys',
  method: 'GET',
  path: '/v1/receipt-signing-keys',
  summary: 'The public keys that sign receipts, as a JWK Set (Ed25519)',
  description:
    'Every key that ever signed receipts, oldest first, with when it started and stopped signing: old receipts keep verifying after a rotation. Anonymous and cacheable (5 minutes); refetch when a receipt names a `kid` you do not have. docs/receipts.md shows how to verify.',
  tags: ['Receipt signing keys'],
  auth: 'anonymous',
  success: { status: 200, description: 'The JWK Set (RFC 7517; OKP keys, RFC 8037).', schema: receiptSigningKeySetSchema, enveloped: false },
  errors: [],
});
