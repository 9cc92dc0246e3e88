import type { Offering } from './answers';

type Props = {
  offerings: Offering[];
  selectedId: string;
  missing: boolean;
  onSelect(offeringId: string): void;
};

/** The services on offer as radio cards; arrow keys move between them, as with any radio group. */
export function OfferingPicker({ offerings, selectedId, missing, onSelect }: Props) {
  return (
    <fieldset className="offering-picker" aria-describedby={missing ? 'offering-missing' : undefined}>
      <legend>What would you like a price for?</legend>
      {missing && (
        <p id="offering-missing" className="field-error">
          Choose a service to get your price.
        </p>
      )}
      <div className="offering-cards">
        {offerings.map((offering, index) => (
          <label key={offering.id} className="offering-card">
            <input
              type="radio"
              name="offering"
              value={offering.id}
              checked={selectedId === offering.id}
              onChange={() => onSelect(offering.id)}
              aria-invalid={missing || undefined}
              data-missing={missing && index === 0 ? '' : undefined}
            />
            <span className="offering-text">
              <span className="offering-label">{offering.label}</span>
              {offering.description && <span className="offering-description">{offering.description}</span>}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
