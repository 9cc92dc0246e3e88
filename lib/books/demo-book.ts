import type { BookArtifactInput } from '../pricing';

/**
 * The demo business's price book: a home-services company. It exercises every phase, an
 * unknown answer with an assumption, an inspection option, and a deposit. Used by the seed
 * and by tests as a realistic book; tests never rely on its ids being in the database.
 */
export const demoBookArtifact = {
  formatVersion: 1,
  currency: 'USD',
  autonomy: 'autonomous',
  offerings: [
    {
      id: 'window_cleaning',
      label: 'Window cleaning',
      basePriceMinor: 12000,
      factorIds: ['home_size', 'storeys', 'frequency', 'access', 'site_type'],
    },
    {
      id: 'gutter_cleaning',
      label: 'Gutter cleaning',
      basePriceMinor: 9000,
      factorIds: ['home_size', 'storeys', 'access', 'site_type'],
      conditions: ['Downpipes are flushed only where they are reachable from the ground.'],
    },
    {
      id: 'solar_panel_cleaning',
      label: 'Solar panel cleaning',
      basePriceMinor: 15000,
      factorIds: ['panel_count', 'storeys', 'frequency'],
    },
  ],
  factors: [
    {
      id: 'home_size',
      label: 'Home size',
      options: [
        { id: 'small', label: 'Up to 2 bedrooms' },
        { id: 'medium', label: '3 to 4 bedrooms' },
        { id: 'large', label: '5 bedrooms or more' },
      ],
    },
    {
      id: 'storeys',
      label: 'Storeys',
      options: [
        { id: '1', label: 'One storey' },
        { id: '2', label: 'Two storeys' },
        { id: '3', label: 'Three storeys' },
        { id: '4_plus', label: 'Four storeys or more', requiresInspection: true },
      ],
      whenUnknown: { action: 'requireInput' },
    },
    {
      id: 'frequency',
      label: 'How often',
      required: false,
      options: [
        { id: 'one_off', label: 'One-off visit' },
        { id: 'monthly', label: 'Every month' },
        { id: 'quarterly', label: 'Every three months' },
      ],
      whenUnknown: { action: 'assume', optionId: 'one_off' },
    },
    {
      id: 'access',
      label: 'Access',
      options: [
        { id: 'easy', label: 'Easy: clear paths, no obstacles' },
        { id: 'difficult', label: 'Difficult: conservatory, steep slope or no side access' },
      ],
      whenUnknown: { action: 'assume', optionId: 'easy' },
    },
    {
      id: 'site_type',
      label: 'Site type',
      required: false,
      options: [
        { id: 'residential', label: 'Residential' },
        { id: 'commercial', label: 'Commercial' },
      ],
    },
    {
      id: 'panel_count',
      label: 'Number of panels',
      options: [
        { id: 'up_to_12', label: 'Up to 12 panels' },
        { id: '13_to_24', label: '13 to 24 panels' },
        { id: '25_plus', label: '25 panels or more', requiresInspection: true },
      ],
    },
  ],
  rules: [
    {
      id: 'commercial_base',
      phase: 'baseOverride',
      label: 'Commercial site rate',
      offeringIds: ['window_cleaning', 'gutter_cleaning'],
      when: [{ factorId: 'site_type', optionIds: ['commercial'] }],
      priceMinor: 25000,
    },
    {
      id: 'large_home',
      phase: 'scopedModifier',
      label: 'Larger home',
      offeringIds: ['window_cleaning', 'gutter_cleaning'],
      when: [{ factorId: 'home_size', optionIds: ['medium', 'large'] }],
      adjustment: { type: 'percent', basisPoints: 2500 },
    },
    {
      id: 'tall_building',
      phase: 'scopedModifier',
      label: 'Three or more storeys',
      offeringIds: ['window_cleaning', 'gutter_cleaning', 'solar_panel_cleaning'],
      when: [{ factorId: 'storeys', optionIds: ['3', '4_plus'] }],
      adjustment: { type: 'fixed', amountMinor: 4500 },
    },
    {
      id: 'many_panels',
      phase: 'scopedModifier',
      label: 'More panels',
      offeringIds: ['solar_panel_cleaning'],
      when: [{ factorId: 'panel_count', optionIds: ['13_to_24', '25_plus'] }],
      adjustment: { type: 'percent', basisPoints: 6000 },
    },
    {
      id: 'difficult_access',
      phase: 'conditionalModifier',
      label: 'Difficult access',
      when: [{ factorId: 'access', optionIds: ['difficult'] }],
      adjustment: { type: 'percent', basisPoints: 1500 },
    },
    {
      id: 'recurring_discount',
      phase: 'discount',
      label: 'Recurring visit discount',
      when: [{ factorId: 'frequency', optionIds: ['monthly', 'quarterly'] }],
      reduction: { type: 'percent', basisPoints: 1000 },
    },
    {
      id: 'minimum_charge',
      phase: 'guardrail',
      label: 'Minimum call-out charge',
      limit: 'minimumTotal',
      amountMinor: 10000,
    },
    {
      id: 'deposit',
      phase: 'paymentTerms',
      label: '25% deposit',
      depositBasisPoints: 2500,
    },
  ],
  conditions: [
    'Prices include all materials and VAT.',
    'The deposit secures the booking and is refundable up to 48 hours before the visit.',
  ],
} satisfies BookArtifactInput;

/** Inputs that price successfully against the demo book. */
export const demoExample = {
  offeringId: 'window_cleaning',
  factors: { home_size: 'medium', storeys: '2', frequency: 'monthly', access: 'difficult' },
};
