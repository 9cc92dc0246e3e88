'use client';

import { useRouter } from 'next/navigation';
import { useId, useState, type FormEvent } from 'react';
import { CheckedInput, useFieldErrors } from '../../../_components/field-error';
import { SelectField } from '../../../_components/form-fields';
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
        <SelectField id={`${id}-project`} label="Project" value={projectId} onChange={(e) => setProjectId(e.target.value)} choices={projects.map((p) => ({ id: p.id, label: p.name }))} />
      )}
      <CheckedInput
        id={`${id}-name`}
        label="Name"
        field="name"
        errors={fieldErrors}
        value={name}
        onValue={setName}
        required
        maxLength={200}
        style={{ width: '24rem', maxWidth: '100%' }}
      />
      <CheckedInput
        id={`${id}-key`}
        label="Key"
        field="key"
        errors={fieldErrors}
        className="mono"
        value={effectiveKey}
        onValue={setKey}
        required
        pattern="[a-z0-9][a-z0-9\-]{0,79}"
        title="Lowercase letters, digits and hyphens, starting with a letter or digit"
        // The hint is read with the field, before any message.
        aria-describedby={fieldErrors.of('key')?.length ? `${id}-key-hint ${id}-key-error` : `${id}-key-hint`}
        hint={
          <div id={`${id}-key-hint`} className="muted" style={{ fontSize: '0.85rem' }}>
            Lowercase letters, digits and hyphens. Integrations use it to name the book; it cannot be changed later.
          </div>
        }
      />
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
