import type { ProducedQuote, Simulation } from './account-schemas';

export type Autonomy = 'autonomous' | 'approval_first' | 'observe';

/**
 * The disposition of a produced quote (docs/account-surface.md has the table):
 * - not priced (needs input or failed): `unpriced` -> `new`, whatever the mode;
 * - `observe` books: `observe` -> `observed`;
 * - `approval_first` books: `hold` -> `awaiting_approval`, whatever the key's scopes;
 * - `autonomous` books: `send` -> `quoted` for an instant price, `hold` -> `awaiting_approval`
 *   when a site visit is or may be needed.
 */
export function disposeQuote(
  simulation: Pick<Simulation, 'decision' | 'pricing_mode'>,
  autonomy: Autonomy,
): Pick<ProducedQuote, 'disposition' | 'state'> {
  if (simulation.decision !== 'priced') return { disposition: 'unpriced', state: 'new' };
  if (autonomy === 'observe') return { disposition: 'observe', state: 'observed' };
  if (autonomy === 'approval_first' || simulation.pricing_mode !== 'instant') return { disposition: 'hold', state: 'awaiting_approval' };
  return { disposition: 'send', state: 'quoted' };
}
