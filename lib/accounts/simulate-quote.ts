import type { ApiKeyPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import type { SimulationRequest } from './account-schemas';
import { requireAccountBook } from './account-book';
import { simulateServices } from './simulate-services';

/** POST /v1/accounts/{id}/quote-simulations: prices, explains, stores nothing. */
export async function simulateQuote(ctx: VerbContext<ApiKeyPrincipal>, request: SimulationRequest) {
  return simulateServices(await requireAccountBook(ctx), request);
}
