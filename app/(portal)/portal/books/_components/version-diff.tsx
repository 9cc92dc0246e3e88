'use client';

import { useId, useState } from 'react';
import { SelectField } from '../../../_components/form-fields';
import { ErrorMessage, Loading } from '../../../_components/ui';
import { diffArtifacts, isUnchanged, type ArtifactDiff, type EntityChange, type FieldChange } from '@/lib/books/artifact-diff';
import { describeField, describeValue } from '../_lib/describe-change';
import { useBookVersion, type BookDetail } from './book-queries';
import styles from './books.module.css';

const currencyOf = (artifact: unknown) =>
  typeof artifact === 'object' && artifact !== null && typeof (artifact as { currency?: unknown }).currency === 'string'
    ? (artifact as { currency: string }).currency
    : 'USD';

/** Two versions side by side as a list of what changed, entity by entity. */
export function VersionDiff({ book }: { book: BookDetail }) {
  const id = useId();
  const [fromId, setFromId] = useState<string | null>(null);
  const [toId, setToId] = useState<string | null>(null);
  // Until chosen: the previous version against the newest (versions are newest first).
  const from = fromId ?? book.versions[1]?.id;
  const to = toId ?? book.versions[0]?.id;
  const before = useBookVersion(book.id, from);
  const after = useBookVersion(book.id, to);

  if (book.versions.length < 2) {
    return (
      <section aria-labelledby={`${id}-heading`}>
        <h2 id={`${id}-heading`}>What changed</h2>
        <p className="muted card">Once the book has two versions, you can compare them here.</p>
      </section>
    );
  }

  const versions = book.versions.map((v) => ({ id: v.id, label: `v${v.number}` }));
  const versionSelect = (label: string, value: string | undefined, onChange: (versionId: string) => void) => (
    <SelectField id={`${id}-${label}`} label={label} value={value} onChange={(e) => onChange(e.target.value)} choices={versions} />
  );

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>What changed</h2>
      <div className="card">
        <div className="row" style={{ gap: '1rem' }}>
          {versionSelect('From version', from, setFromId)}
          {versionSelect('To version', to, setToId)}
        </div>
        {before.isPending || after.isPending ? (
          <Loading what="the two versions" />
        ) : before.isError ? (
          <ErrorMessage error={before.error} />
        ) : after.isError ? (
          <ErrorMessage error={after.error} />
        ) : from === to ? (
          <p className="muted">Choose two different versions to see what changed.</p>
        ) : (
          <ChangeList
            diff={diffArtifacts(before.data.artifact, after.data.artifact)}
            currencies={{ before: currencyOf(before.data.artifact), after: currencyOf(after.data.artifact) }}
            title={`Changes from v${before.data.number} to v${after.data.number}`}
          />
        )}
      </div>
    </section>
  );
}

export type Currencies = { before: string; after: string };

export function ChangeList({ diff, currencies, title }: { diff: ArtifactDiff; currencies: Currencies; title: string }) {
  if (isUnchanged(diff)) return <p className="muted">These versions price exactly the same way: nothing changed.</p>;
  return (
    <ul className={styles.changes} aria-label={title}>
      {diff.settings.map((change) => (
        <li key={change.field}>
          <strong>Book {describeField(change.field)}</strong>: <Values change={change} currencies={currencies} />
        </li>
      ))}
      {diff.entities.map((entity) => (
        <EntityChangeItem key={`${entity.kind}-${entity.id}`} entity={entity} currencies={currencies} />
      ))}
      {diff.conditions.added.map((text) => (
        <li key={`added-${text}`}>
          <span className="badge live">added</span> Condition: “{text}”
        </li>
      ))}
      {diff.conditions.removed.map((text) => (
        <li key={`removed-${text}`}>
          <span className="badge danger">removed</span> Condition: “{text}”
        </li>
      ))}
      {diff.ruleOrderChanged && <li>The rules are in a different order. Within a phase, rules apply in list order.</li>}
    </ul>
  );
}

const KIND_NAMES = { offering: 'Offering', factor: 'Factor', rule: 'Rule' } as const;

function EntityChangeItem({ entity, currencies }: { entity: EntityChange; currencies: Currencies }) {
  const name = (
    <>
      <strong>
        {KIND_NAMES[entity.kind]} “{entity.label}”
      </strong>{' '}
      <code>{entity.id}</code>
    </>
  );
  if (entity.change !== 'changed') {
    return (
      <li>
        <span className={`badge ${entity.change === 'added' ? 'live' : 'danger'}`}>{entity.change}</span> {name}
      </li>
    );
  }
  return (
    <li>
      {name}
      <ul>
        {entity.fields.map((change) => (
          <li key={change.field}>
            {describeField(change.field)}: <Values change={change} currencies={currencies} />
          </li>
        ))}
      </ul>
    </li>
  );
}

function Values({ change, currencies }: { change: FieldChange; currencies: Currencies }) {
  return (
    <>
      <span className={styles.before}>{describeValue(change.field, change.before, currencies.before)}</span>
      <span aria-hidden="true"> → </span>
      <span className="sr-only"> changed to </span>
      <span className={styles.after}>{describeValue(change.field, change.after, currencies.after)}</span>
    </>
  );
}
