'use client';

import { useRouter } from 'next/navigation';
import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../../_components/api';
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
  const [key, setKey] = useState('');
  const [keyEdited, setKeyEdited] = useState(false);
  const [makePrimary, setMakePrimary] = useState(false);
  const effectiveKey = keyEdited ? key : keyFromName(name);
  const fieldErrors = createBook.error instanceof ApiError ? createBook.error.fields : {};
  const shownBesideAField = Boolean(fieldErrors.name?.length || fieldErrors.key?.length);

  const submit = (event: FormEvent) => {
    event.preventDefault();
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
        <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} style={{ width: '24rem', maxWidth: '100%' }} />
        <FieldError messages={fieldErrors.name} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-key`}>Key</label>
        <input
          id={`${id}-key`}
          className="mono"
          value={effectiveKey}
          onChange={(e) => {
            setKeyEdited(true);
            setKey(e.target.value);
          }}
          required
          pattern="[a-z0-9][a-z0-9\-]{0,79}"
          title="Lowercase letters, digits and hyphens, starting with a letter or digit"
          aria-describedby={`${id}-key-hint`}
        />
        <div id={`${id}-key-hint`} className="muted" style={{ fontSize: '0.85rem' }}>
          Lowercase letters, digits and hyphens. Integrations use it to name the book; it cannot be changed later.
        </div>
        <FieldError messages={fieldErrors.key} />
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

function FieldError({ messages }: { messages?: string[] }) {
  if (!messages?.length) return null;
  return (
    <div className="error" role="alert" style={{ marginTop: '0.3rem' }}>
      {messages.join(' ')}
    </div>
  );
}
