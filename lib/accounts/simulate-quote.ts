import type { ApiKeyPrincipal } from '../auth/principal';
import type { DbOrTx } from '../db/client';
import type { SimulationRequest } from './account-schemas';
import { requireAccountBook } from './account-book';
import { simulateServices } from './simulate-services';

/** POST /v1/accounts/{id}/quote-simulations: prices, explains, stores nothing. */
export async function simulateQuote(db: DbOrTx, principal: ApiKeyPrincipal, request: SimulationRequest) {
  return simulateServices(await requireAccountBook(db, principal), request);
}
