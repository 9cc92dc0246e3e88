'use client';

import { IntentLink } from '../../../../_components/intent-link';
import { useParams } from 'next/navigation';
import { usePageAccess } from '../../../_components/portal-access';
import { ErrorMessage, Loading } from '../../../_components/ui';
import { starterArtifact } from '../_lib/starter-artifact';
import { BookBadges, PublishedVersion } from '../_components/book-badges';
import { useBook, useBookPermissions, useBookVersion, type BookDetail } from '../_components/book-queries';
import { BookEditor } from '../_components/editor/book-editor';
import { VersionDiff } from '../_components/version-diff';
import { VersionHistory } from '../_components/version-history';
import { PublicationHistory } from '../_components/publication-history';
import { ExperimentsLink, ExperimentsSection } from '../_components/experiments/experiments-section';

export default function BookPage() {
  const { bookId } = useParams<{ bookId: string }>();
  const book = useBook(bookId);
  const permissions = useBookPermissions(book.data?.projectId);
  const access = usePageAccess();

  return (
    <>
      <p style={{ marginTop: 0 }}>
        {/* A business member reads the book their quotes came from; the list of books is the workspace's. */}
        {access?.books === null ? <IntentLink href="/portal/quotes">← Your business’s quotes</IntentLink> : <IntentLink href="/portal/books">← All price books</IntentLink>}
      </p>
      {book.isPending || permissions.isPending ? (
        <Loading what="the price book" />
      ) : book.isError ? (
        <>
          <h1>Price book</h1>
          <ErrorMessage error={book.error} />
        </>
      ) : (
        <>
          <BookHeader book={book.data} />
          {permissions.error && <ErrorMessage error={permissions.error} />}
          <DraftLoader key={book.data.id} book={book.data} canEdit={permissions.canEdit} canPublish={permissions.canPublish} />
          <VersionHistory book={book.data} canPublish={permissions.canPublish} />
          <ExperimentsSection book={book.data} canPublish={permissions.canPublish} />
          <VersionDiff book={book.data} />
          <PublicationHistory bookId={book.data.id} />
        </>
      )}
    </>
  );
}

function BookHeader({ book }: { book: BookDetail }) {
  return (
    <header style={{ marginBottom: '1rem' }}>
      <h1 style={{ marginBottom: '0.25rem' }}>
        {book.name} <BookBadges isPrimary={book.isPrimary} hasDraft={book.hasDraft} />
      </h1>
      <div className="row muted">
        <span>
          Key <code>{book.key}</code>
        </span>
        <span aria-hidden="true">·</span>
        <span>
          Test: <PublishedVersion publication={book.publications.test} />
        </span>
        <span aria-hidden="true">·</span>
        <span>
          Live: <PublishedVersion publication={book.publications.live} />
        </span>
        <span aria-hidden="true">·</span>
        <ExperimentsLink bookId={book.id} />
      </div>
    </header>
  );
}

/**
 * Picks what the editor starts from: the saved draft, else the newest version's artifact,
 * else a minimal book. Mounted once per book, so later refetches never overwrite typing.
 */
function DraftLoader({ book, canEdit, canPublish }: { book: BookDetail; canEdit: boolean; canPublish: boolean }) {
  const newest = book.versions[0];
  const startsFromVersion = book.draft === null && newest !== undefined;
  const version = useBookVersion(book.id, startsFromVersion ? newest.id : undefined);
  const editor = (initialDraft: unknown, sourceNote: string) => (
    <BookEditor bookId={book.id} initialDraft={initialDraft} hasSavedDraft={book.draft !== null} sourceNote={sourceNote} canEdit={canEdit} canPublish={canPublish} />
  );

  // A reader is told what they are looking at; an editor also what their changes do.
  if (book.draft !== null) {
    return editor(
      book.draft,
      canEdit
        ? 'You are editing the saved draft. Changes show in the preview at once; customers see nothing until a version is published.'
        : 'This is the saved draft, not yet published: customers see the published version.',
    );
  }
  if (!startsFromVersion) {
    return editor(starterArtifact, canEdit ? 'This book is new: start from this example. Saving it creates the draft.' : 'This book has no draft and no version yet: this is the example a new book starts from.');
  }
  if (version.isPending) return <Loading what={`version ${newest.number}`} />;
  if (version.isError) return <ErrorMessage error={version.error} />;
  return editor(
    version.data.artifact,
    canEdit ? `There is no draft yet, so this is a copy of version ${newest.number}. Saving it creates the draft.` : `There is no draft: this is version ${newest.number}.`,
  );
}
