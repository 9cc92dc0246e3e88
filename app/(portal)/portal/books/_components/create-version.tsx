'use client';

import { useId } from 'react';
import { ApiError } from '../../../_components/api';
import { ErrorMessage } from '../../../_components/ui';
import { useCreateVersion } from './book-queries';
import { IssueList } from './issue-list';

/**
 * Freezes the saved draft into the next version. `blockedBecause` says, in words, why that
 * cannot happen yet (permission, unsaved changes, known problems).
 */
export function CreateVersion({
  bookId,
  blockedBecause,
  artifact,
  onRevealPath,
}: {
  bookId: string;
  blockedBecause: string | null;
  artifact: unknown;
  onRevealPath: (path: string) => void;
}) {
  const createVersion = useCreateVersion(bookId);
  const id = useId();
  const refusedFields = createVersion.error instanceof ApiError ? createVersion.error.fields : {};

  return (
    <div style={{ marginTop: '1rem' }}>
      <div className="row">
        <button
          type="button"
          onClick={() => createVersion.mutate()}
          disabled={blockedBecause !== null || createVersion.isPending}
          aria-describedby={blockedBecause ? `${id}-why` : undefined}
        >
          {createVersion.isPending ? 'Creating version…' : 'Create version from draft'}
        </button>
        {blockedBecause && (
          <span id={`${id}-why`} className="muted">
            {blockedBecause}
          </span>
        )}
      </div>
      {createVersion.isSuccess && (
        <p className="notice" role="status">
          Version {createVersion.data.number} created. Nothing changes for customers until you publish it below.
        </p>
      )}
      {createVersion.isError &&
        (Object.keys(refusedFields).length > 0 ? (
          <div className="error" role="alert">
            The draft could not become a version because of these problems:
            <IssueList issues={refusedFields} artifact={artifact} onReveal={onRevealPath} label="Problems that stop the version" />
          </div>
        ) : (
          <ErrorMessage error={createVersion.error} />
        ))}
    </div>
  );
}
