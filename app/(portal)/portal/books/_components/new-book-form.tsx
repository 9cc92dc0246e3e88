'use client';

import { useRouter } from 'next/navigation';
import { useId, useState, type FormEvent } from 'react';
import { describedBy, FieldError, useFieldErrors } from '../../../_components/field-error';
import { ErrorMessage } from '../../../_components/ui';
import { useCreateBook } from './book-queries';

/** A key suggested from the name: "Spring offers 2025" → "spring-offers-2025". */
function keyFromName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}

export function NewBookForm({ projects }: { projects: { id: string; name: string }[] }) {
  const router = useRouter();
  const createBook = useCreateBook();
  const id = useId();
  const [projectId, setProjectId] = useState(projects[0].id);
  const [name, setName] = useState('');
  // null until the person types a key of their own: until then it follows the name
  const [key, setKey] = useState<string | null>(null);
  const [makePrimary, setMakePrimary] = useState(false);
  const effectiveKey = key ?? keyFromName(name);
  const fieldErrors = useFieldErrors(createBook.error);
  const shownBesideAField = Boolean(fieldErrors.of('name')?.length || fieldErrors.of('key')?.length);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    fieldErrors.clearEdited();
    createBook.mutate(
      { projectId, name: name.trim(), key: effectiveKey, makePrimary },
      { onSuccess: (book) => router.push(`/portal/books/${book.id}`) },
    );
  };

  return (
    <form className="card" onSubmit={submit} aria-label="New book">
      {projects.length > 1 && (
        <div className="field">
          <label htmlFor={`${id}-project`}>Project</label>
          <select id={`${id}-project`} value={projectId} onChange={(e) => setProjectId(e.target.value)}>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            fieldErrors.markEdited('name');
          }}
          required
          maxLength={200}
          style={{ width: '24rem', maxWidth: '100%' }}
          {...describedBy(`${id}-name-error`, fieldErrors.of('name'))}
        />
        <FieldError id={`${id}-name-error`} messages={fieldErrors.of('name')} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-key`}>Key</label>
        <input
          id={`${id}-key`}
          className="mono"
          value={effectiveKey}
          onChange={(e) => {
            setKey(e.target.value);
            fieldErrors.markEdited('key');
          }}
          required
          pattern="[a-z0-9][a-z0-9\-]{0,79}"
          title="Lowercase letters, digits and hyphens, starting with a letter or digit"
          aria-describedby={fieldErrors.of('key')?.length ? `${id}-key-hint ${id}-key-error` : `${id}-key-hint`}
          aria-invalid={fieldErrors.of('key')?.length ? true : undefined}
        />
        <div id={`${id}-key-hint`} className="muted" style={{ fontSize: '0.85rem' }}>
          Lowercase letters, digits and hyphens. Integrations use it to name the book; it cannot be changed later.
        </div>
        <FieldError id={`${id}-key-error`} messages={fieldErrors.of('key')} />
      </div>
      <div className="field">
        <label style={{ fontWeight: 400 }}>
          <input type="checkbox" checked={makePrimary} onChange={(e) => setMakePrimary(e.target.checked)} /> Make it the
          project&apos;s primary book (the one the hosted quote page uses)
        </label>
      </div>
      {createBook.isError && !shownBesideAField && <ErrorMessage error={createBook.error} />}
      <button type="submit" className="primary" disabled={createBook.isPending}>
        {createBook.isPending ? 'Creating…' : 'Create book'}
      </button>
    </form>
  );
}
