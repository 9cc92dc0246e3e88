'use client';

import type { BookSummary } from '../../../_components/queries';
import { formatTime } from '../../../_components/ui';
import styles from './books.module.css';

/** An environment's publication as the books routes answer it (the list's and one book's are the same). */
type Publication = Pick<NonNullable<BookSummary['publications']['test']>, 'number' | 'publishedAt'> | null;

/** The version an environment quotes with, or that nothing is published there. */
export function PublishedVersion({ publication }: { publication: Publication }) {
  if (!publication) return <span className="muted">not published</span>;
  return <span title={`Published ${formatTime(publication.publishedAt)}`}>v{publication.number}</span>;
}

export function BookBadges({ isPrimary, hasDraft }: { isPrimary: boolean; hasDraft: boolean }) {
  return (
    <>
      {isPrimary && (
        <span className="badge" title="The project's primary book: the hosted quote page and public quotes use it">
          primary
        </span>
      )}{' '}
      {hasDraft && (
        <span className={`badge ${styles.draftBadge}`} title="Has a saved draft with changes not yet in a version">
          draft
        </span>
      )}
    </>
  );
}
