import type { VerbContext } from '../context/verb-context';
import { toDeliveryView } from './delivery-view';
import { readDelivery } from './store';

export async function getDelivery({ db }: VerbContext, { deliveryId }: { deliveryId: string }) {
  return toDeliveryView(await readDelivery(db, deliveryId));
}
