import type { VerbContext } from '../context/verb-context';
import { checkDatabase } from '../db/check-database';
import { ServiceError } from '../errors/service-error';
import { checkSealingKey } from '../sealing/check-sealing-key';
import { currentReceiptSigner } from './signing-keys';

/**
 * GET /v1/status/ready: whether this instance can quote, which needs the database, the sealing
 * key every instance shares, and a receipt signing key (made on first use). An instance that
 * cannot answers 503, so that a load balancer keeps it out of rotation (docs/operations.md).
 */
export async function checkReadiness({ db, now }: Pick<VerbContext, 'db' | 'now'>): Promise<{ ready: true; receiptSigningKid: string }> {
  try {
    await checkDatabase(db);
  } catch {
    throw new ServiceError('service_unavailable', 'Not ready: the database cannot be reached from this instance.');
  }
  const sealing = await checkSealingKey(db);
  if (!sealing.usable) throw new ServiceError('service_unavailable', `Not ready: this instance cannot sign receipts, so it cannot quote: ${sealing.reason}.`);
  const signer = await currentReceiptSigner(db, now);
  return { ready: true, receiptSigningKid: signer.kid };
}
