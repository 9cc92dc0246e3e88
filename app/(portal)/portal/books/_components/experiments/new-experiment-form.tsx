'use client';

import { useId, useMemo, useState, type FormEvent } from 'react';
import { Choice, ChoiceGroup, EnvironmentChoice, PlainFieldset } from '../../../../_components/choice-group';
import { describedBy, FieldError, useFieldErrors } from '../../../../_components/field-error';
import { SubmitOrCancel } from '../../../../_components/form-fields';
import { ENVIRONMENT_LABEL } from '../../../../_components/ui';
import { useBookVersion, type BookDetail, type EnvironmentKind } from '../book-queries';
import { useCreateExperiment, type Experiment } from './experiment-queries';
import { armLetter, DEFAULT_SURFACE_CHOICE, METRIC_CHOICES, SURFACE_CHOICES, type MetricChoice } from './experiment-words';
import styles from './experiments.module.css';

const ENVIRONMENT_MEANING: Record<EnvironmentKind, string> = {
  test: ' — quotes made with Test API keys; no customer sees it.',
  live: ' — your customers’ quotes: real prices.',
};

/** Offerings of a version's artifact, as `{ id, label }`. */
export function offeringsOf(artifact: unknown): { id: string; label: string }[] {
  const offerings = (artifact as { offerings?: unknown } | undefined)?.offerings;
  if (!Array.isArray(offerings)) return [];
  return offerings.flatMap((o: { id?: unknown; label?: unknown }) => (typeof o?.id === 'string' ? [{ id: o.id, label: typeof o.label === 'string' ? o.label : o.id }] : []));
}

/** Whole percents shared as evenly as they go, the control taking what is left over. */
function evenSplit(arms: number): number[] {
  const each = Math.floor(100 / arms);
  return [100 - each * (arms - 1), ...Array.from({ length: arms - 1 }, () => each)];
}

const weightOf = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN);

/**
 * A draft experiment: its name, Test or Live, the versions to try against what is published
 * there, how customers are shared between them (in percent, adding up to 100), optionally some
 * offerings only, and what it is judged by.
 */
export function NewExperimentForm({ book, onCreated, onCancel }: { book: BookDetail; onCreated: (experiment: Experiment) => void; onCancel: () => void }) {
  const id = useId();
  const create = useCreateExperiment(book.id);
  const errors = useFieldErrors(create.error);
  const [name, setName] = useState('');
  const [environment, setEnvironment] = useState<EnvironmentKind>(book.publications.live ? 'live' : 'test');
  const [variantIds, setVariantIds] = useState<string[]>([]);
  const [weights, setWeights] = useState<Record<string, string>>({ control: '100' });
  const [someOfferings, setSomeOfferings] = useState(false);
  const [offeringIds, setOfferingIds] = useState<string[]>([]);
  const [surfaces, setSurfaces] = useState<string[]>([...DEFAULT_SURFACE_CHOICE]);
  const [metric, setMetric] = useState<MetricChoice>('revenue_per_quote');
  const [tried, setTried] = useState(false);
  // Guardrails (docs/experiments.md): the service's defaults, shown so they can be changed.
  const [maxDifference, setMaxDifference] = useState('20');
  const [pauseMargin, setPauseMargin] = useState('5');

  const control = book.publications[environment];
  const candidates = book.versions.filter((v) => v.id !== control?.versionId);
  const chosen = candidates.filter((v) => variantIds.includes(v.id));
  // The offerings a quote can be for: those of the control (or, with nothing published, the newest version).
  const offeringVersion = useBookVersion(book.id, control?.versionId ?? book.versions[0]?.id);
  const offerings = useMemo(() => offeringsOf(offeringVersion.data?.artifact), [offeringVersion.data]);

  const armKeys = ['control', ...chosen.map((v) => v.id)];
  const total = armKeys.reduce((sum, key) => sum + (weightOf(weights[key] ?? '') || 0), 0);
  const badWeight = armKeys.some((key) => Number.isNaN(weightOf(weights[key] ?? '')));
  const splitProblem =
    chosen.length === 0
      ? 'Choose at least one version to try.'
      : badWeight
        ? 'Each share is a whole number of percent, from 0 to 100.'
        : total !== 100
          ? `The shares add up to ${total}%: they must add up to exactly 100%.`
          : null;
  const offeringProblem = someOfferings && offeringIds.length === 0 ? 'Choose at least one offering, or take part with every offering.' : null;
  const surfaceProblem = surfaces.length === 0 ? 'Choose at least one place quotes come from.' : null;
  const nameProblem = name.trim() === '' ? 'Give the experiment a name.' : null;
  const maxDifferenceValue = weightOf(maxDifference);
  const pauseMarginValue = pauseMargin.trim() === '' ? null : Number(pauseMargin);
  const guardProblem =
    Number.isNaN(maxDifferenceValue) || maxDifferenceValue < 0
      ? 'The largest difference is a whole number of percent.'
      : pauseMarginValue !== null && !(pauseMarginValue > 0 && pauseMarginValue < 100)
        ? 'The pause margin is a number of points between 0 and 100, or empty for never.'
        : null;

  const toggleVariant = (versionId: string, on: boolean) => {
    const next = on ? [...variantIds, versionId] : variantIds.filter((v) => v !== versionId);
    setVariantIds(next);
    const keys = ['control', ...candidates.filter((v) => next.includes(v.id)).map((v) => v.id)];
    const split = evenSplit(keys.length);
    setWeights(Object.fromEntries(keys.map((key, i) => [key, String(split[i])])));
    errors.markEdited('variants');
  };
  const changeEnvironment = (env: EnvironmentKind) => {
    setEnvironment(env);
    // The new environment's publication is the control: it cannot also be a variant.
    const pinned = book.publications[env]?.versionId;
    if (pinned && variantIds.includes(pinned)) toggleVariant(pinned, false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (nameProblem || splitProblem || offeringProblem || surfaceProblem || guardProblem) return;
    errors.clearEdited();
    create.mutate(
      {
        name: name.trim(),
        environment,
        controlWeight: weightOf(weights.control),
        variants: chosen.map((v) => ({ versionId: v.id, weight: weightOf(weights[v.id]) })),
        ...(someOfferings ? { offeringIds } : {}),
        surfaces: SURFACE_CHOICES.map((s) => s.id).filter((s) => surfaces.includes(s)),
        primaryMetric: metric,
        maxPriceDifferencePercent: maxDifferenceValue,
        pauseWhenAcceptanceDropsPoints: pauseMarginValue,
      },
      { onSuccess: onCreated },
    );
  };

  const nameMessages = errors.of('name') ?? (tried && nameProblem ? [nameProblem] : undefined);
  const variantMessages = errors.of('variants');

  return (
    <form className={`card ${styles.form}`} onSubmit={submit} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`} style={{ marginTop: 0 }}>
        New experiment
      </h3>
      <PlainFieldset disabled={create.isPending}>
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            value={name}
            maxLength={120}
            autoFocus
            placeholder="e.g. Cheaper window cleaning"
            onChange={(e) => {
              setName(e.target.value);
              errors.markEdited('name');
            }}
            {...describedBy(`${id}-name-error`, nameMessages)}
          />
          <FieldError id={`${id}-name-error`} messages={nameMessages} />
        </div>

        <EnvironmentChoice name={`${id}-environment`} value={environment} onChange={changeEnvironment} meaning={ENVIRONMENT_MEANING}>
          <FieldError id={`${id}-environment-error`} messages={errors.of('environment')} />
        </EnvironmentChoice>

        <p className={control ? 'notice' : 'warning'} data-testid="experiment-control">
          {control ? (
            <>
              <strong>A · the control</strong> is what {ENVIRONMENT_LABEL[environment]} publishes now: <strong>version {control.number}</strong>. It is
              fixed when the experiment starts.
            </>
          ) : (
            <>Nothing is published in {ENVIRONMENT_LABEL[environment]} yet: publish a version there before starting an experiment.</>
          )}
        </p>

        <ChoiceGroup legend="Versions to try against it">
          {candidates.length === 0 ? (
            <p className="muted">There is no other version of this book to try.</p>
          ) : (
            candidates.map((v) => (
              <Choice key={v.id}>
                <input type="checkbox" checked={variantIds.includes(v.id)} onChange={(e) => toggleVariant(v.id, e.target.checked)} />
                <span>
                  Version {v.number}
                  <span className="muted"> — created {new Date(v.createdAt).toLocaleDateString()}</span>
                </span>
              </Choice>
            ))
          )}
        </ChoiceGroup>

        {chosen.length > 0 && (
          <fieldset className={styles.split} aria-describedby={`${id}-total`}>
            <legend>Share of customers</legend>
            <p className="hint" style={{ marginTop: 0 }}>
              Each customer always gets the same version. The shares must add up to 100%.
            </p>
            {armKeys.map((key, i) => {
              const label = key === 'control' ? `A · control (v${control?.number ?? '?'})` : `${armLetter(`variant_${i}`)} (v${chosen[i - 1].number})`;
              return (
                <div key={key} className={styles.weight}>
                  <label htmlFor={`${id}-weight-${key}`}>{label}</label>
                  <span className={styles.percent}>
                    <input
                      id={`${id}-weight-${key}`}
                      inputMode="numeric"
                      value={weights[key] ?? ''}
                      onChange={(e) => {
                        setWeights({ ...weights, [key]: e.target.value });
                        errors.markEdited('variants');
                        errors.markEdited('controlWeight');
                      }}
                      aria-invalid={splitProblem !== null || undefined}
                    />
                    %
                  </span>
                </div>
              );
            })}
            <p id={`${id}-total`} role="status" aria-live="polite" className={splitProblem ? 'field-error' : styles.total} data-testid="weight-total">
              {splitProblem ?? 'Total: 100% ✓'}
            </p>
          </fieldset>
        )}
        {chosen.length === 0 && tried && <p className="field-error">{splitProblem}</p>}
        <FieldError id={`${id}-variants-error`} messages={variantMessages ?? errors.of('controlWeight')} />

        <ChoiceGroup legend="Which quotes take part">
          <Choice>
            <input type="radio" name={`${id}-offerings`} checked={!someOfferings} onChange={() => setSomeOfferings(false)} />
            Every offering
          </Choice>
          <Choice>
            <input type="radio" name={`${id}-offerings`} checked={someOfferings} onChange={() => setSomeOfferings(true)} />
            Some offerings only
          </Choice>
          {someOfferings && (
            <div className={styles.offerings}>
              {offerings.map((o) => (
                <Choice key={o.id}>
                  <input
                    type="checkbox"
                    checked={offeringIds.includes(o.id)}
                    onChange={(e) => setOfferingIds(e.target.checked ? [...offeringIds, o.id] : offeringIds.filter((x) => x !== o.id))}
                  />
                  {o.label}
                </Choice>
              ))}
              {tried && offeringProblem && <p className="field-error">{offeringProblem}</p>}
            </div>
          )}
          <FieldError id={`${id}-offerings-error`} messages={errors.of('offeringIds')} />
        </ChoiceGroup>

        <ChoiceGroup legend="Where the quotes come from">
          {SURFACE_CHOICES.map((s) => (
            <Choice key={s.id}>
              <input
                type="checkbox"
                value={s.id}
                checked={surfaces.includes(s.id)}
                onChange={(e) => setSurfaces(e.target.checked ? [...surfaces, s.id] : surfaces.filter((x) => x !== s.id))}
              />
              <span>
                {s.label}
                <span className="muted"> — {s.meaning}</span>
              </span>
            </Choice>
          ))}
          {tried && surfaceProblem && <p className="field-error">{surfaceProblem}</p>}
          <FieldError id={`${id}-surfaces-error`} messages={errors.of('surfaces')} />
        </ChoiceGroup>

        <ChoiceGroup legend="Judged by">
          {METRIC_CHOICES.map((m) => (
            <Choice key={m.id}>
              <input type="radio" name={`${id}-metric`} value={m.id} checked={metric === m.id} onChange={() => setMetric(m.id)} />
              <span>
                {m.label}
                {m.id === 'revenue_per_quote' && ' (recommended)'}
                <span className="muted"> — {m.meaning}</span>
              </span>
            </Choice>
          ))}
        </ChoiceGroup>

        <ChoiceGroup legend="Guardrails">
          <div className="field">
            <label htmlFor={`${id}-max-difference`}>Largest price difference from the control (%)</label>
            <input id={`${id}-max-difference`} inputMode="numeric" value={maxDifference} onChange={(e) => setMaxDifference(e.target.value)} {...describedBy(`${id}-guard-error`, errors.of('maxPriceDifferencePercent'))} />
            <p className="muted">A version that prices any recent answers further from the control than this cannot start.</p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-pause-margin`}>Pause a version whose acceptance falls this many points below the control’s</label>
            <input id={`${id}-pause-margin`} inputMode="decimal" value={pauseMargin} placeholder="never" onChange={(e) => setPauseMargin(e.target.value)} />
            <p className="muted">Checked every minute, only once the difference is certain (95%); empty: never pause.</p>
          </div>
          {tried && guardProblem && <p className="field-error">{guardProblem}</p>}
          <FieldError id={`${id}-guard-error`} messages={errors.of('maxPriceDifferencePercent') ?? errors.of('pauseWhenAcceptanceDropsPoints')} />
        </ChoiceGroup>

        <p className="muted">Creating saves a draft: nothing changes for customers until you start it.</p>
        <SubmitOrCancel error={create.error} submit={create.isPending ? 'Creating…' : 'Create draft experiment'} onCancel={onCancel} />
      </PlainFieldset>
    </form>
  );
}
