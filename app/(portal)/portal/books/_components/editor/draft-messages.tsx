'use client';

import { ErrorMessage } from '../../../../_components/ui';
import { IssueList } from '../issue-list';
import type { Issues } from './fields';

/**
 * What the editor tells the person between its toolbar and the draft: how the last save went, a note about an edit that did more than they typed, and the problems that stop the draft
 * from becoming a version (each a link to its field).
 */
export function DraftMessages({ saveError, saveNote, notice, onNoticeRead, problemsId, issues, artifact, onReveal }: {
  saveError: unknown;
  saveNote: string | null;
  notice: string | null;
  onNoticeRead: () => void;
  problemsId: string;
  issues: Issues;
  artifact: unknown;
  onReveal: (path: string) => void;
}) {
  const issueCount = Object.values(issues).flat().length;
  return (
    <>
      {saveError != null && <ErrorMessage error={saveError} />}
      {saveNote && (
        <p className="notice" role="status">
          {saveNote}
        </p>
      )}
      {notice && (
        <p className="notice" role="status">
          {notice}{' '}
          <button type="button" onClick={onNoticeRead}>
            OK
          </button>
        </p>
      )}
      {issueCount > 0 && (
        <details className="warning" id={problemsId} open={issueCount <= 5} style={{ marginBottom: '1rem' }}>
          <summary>
            <strong>{issueCount === 1 ? '1 problem stops' : `${issueCount} problems stop`} this draft from becoming a version</strong> (you can still save it as work in progress).
            Select one to go to it.
          </summary>
          <IssueList issues={issues} artifact={artifact} onReveal={onReveal} label="Problems in the draft" />
        </details>
      )}
    </>
  );
}
