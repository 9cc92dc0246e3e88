import { z } from 'zod';

/** The signature every receipt carries (docs/receipts.md). */
export const receiptSignatureSchema = z
  .object({
    alg: z.literal('Ed25519'),
    kid: z.string().meta({ description: 'The signing key: find it by `kid` in GET /v1/receipt-signing-keys.' }),
    value: z.string().meta({ description: 'The 64-byte Ed25519 signature, base64url without padding.' }),
  })
  .meta({
    id: 'ReceiptSignature',
    description:
      'Ed25519 over the RFC 8785 canonical JSON of the object that carries it, without its `signature` field. Null on receipts written before receipts were signed.',
  });
export type ReceiptSignature = z.infer<typeof receiptSignatureSchema>;

/** A public key that signs (or signed) receipts, as a JWK (RFC 7517, RFC 8037). */
export const receiptSigningJwkSchema = z
  .object({
    kty: z.literal('OKP'),
    crv: z.literal('Ed25519'),
    kid: z.string(),
    use: z.literal('sig'),
    alg: z.literal('EdDSA'),
    x: z.string().meta({ description: 'The 32-byte public key, base64url.' }),
    activeFrom: z.iso.datetime().meta({ description: 'When the key started signing receipts.' }),
    activeUntil: z.iso.datetime().nullable().meta({ description: 'When it stopped (a newer key took over); null for the current key.' }),
  })
  .meta({ id: 'ReceiptSigningJwk' });
export type ReceiptSigningJwk = z.infer<typeof receiptSigningJwkSchema>;

export const receiptSigningKeySetSchema = z
  .object({ keys: z.array(receiptSigningJwkSchema) })
  .meta({ id: 'ReceiptSigningKeySet', description: 'A JWK Set: every key that ever signed receipts, oldest first.' });
export type ReceiptSigningKeySet = z.infer<typeof receiptSigningKeySetSchema>;
