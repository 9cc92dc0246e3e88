import type { DbOrTx } from '../db/client';
import { deliverySelect, toDeliveryView } from './delivery-view';

export async function getDelivery(db: DbOrTx, deliveryId: string) {
  return toDeliveryView(await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId }, select: deliverySelect }));
}
