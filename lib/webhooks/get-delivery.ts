import type { VerbContext } from '../context/verb-context';
import { deliverySelect, toDeliveryView } from './delivery-view';

export async function getDelivery({ db }: VerbContext, { deliveryId }: { deliveryId: string }) {
  return toDeliveryView(await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId }, select: deliverySelect }));
}
