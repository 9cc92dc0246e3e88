'use client';

import { IntentLink } from '../../../_components/intent-link';
import { useBooks, useWorkspaces, type BookSummary, type Workspace } from '../../_components/queries';
import { Empty, ErrorMessage, Loading } from '../../_components/ui';
import { BooksTable } from './_components/books-table';
import { NewBookForm } from './_components/new-book-form';
import { AskAnAdmin } from '../../_components/ask-an-admin';

export default function BooksPage() {
  const workspaces = useWorkspaces();
  const books = useBooks();

  return (
    <>
      <h1>Price books</h1>
      <p className="muted">
        A price book holds your offerings, the questions customers answer and the rules that make the price. Each project
        publishes one version of a book to Test and one to Live.
      </p>
      {workspaces.isPending || books.isPending ? (
        <Loading what="price books" />
      ) : workspaces.isError ? (
        <ErrorMessage error={workspaces.error} />
      ) : books.isError ? (
        <ErrorMessage error={books.error} />
      ) : workspaces.data.workspaces.length === 0 ? (
        <p className="notice" data-testid="needs-access">
          Price books belong to a workspace: its members read them, and those allowed to edit price books change them.{' '}
          <AskAnAdmin /> The trace of each of your business’s quotes shows the book version it was priced with:{' '}
          <IntentLink href="/portal/quotes">your business’s quotes</IntentLink>.
        </p>
      ) : (
        <>
          {workspaces.data.workspaces.map((w) => (
            <WorkspaceBooks key={w.id} workspace={w} books={books.data.books} />
          ))}
          <NewBookSection workspaces={workspaces.data.workspaces} />
        </>
      )}
    </>
  );
}

function WorkspaceBooks({ workspace, books }: { workspace: Workspace; books: BookSummary[] }) {
  return (
    <section className="card" aria-labelledby={`workspace-${workspace.id}`}>
      <h2 id={`workspace-${workspace.id}`} style={{ marginTop: 0 }}>
        {workspace.name}
      </h2>
      {workspace.projects.length === 0 && <p className="muted">This workspace has no projects yet.</p>}
      {workspace.projects.map((project) => (
        <ProjectBooks key={project.id} name={project.name} books={books.filter((b) => b.projectId === project.id)} />
      ))}
    </section>
  );
}

function ProjectBooks({ name, books }: { name: string; books: BookSummary[] }) {
  return (
    <div style={{ marginBottom: '1rem' }}>
      <h3 style={{ fontSize: '1rem', margin: '0.5rem 0' }}>{name}</h3>
      {books.length === 0 ? (
        <p className="muted">No price books in this project yet.</p>
      ) : (
        <BooksTable books={books} ariaLabel={`Price books of ${name}`} />
      )}
    </div>
  );
}

function NewBookSection({ workspaces }: { workspaces: Workspace[] }) {
  const editable = workspaces.filter((w) => w.permissions.includes('books:edit'));
  const projects = editable.flatMap((w) =>
    w.projects.map((p) => ({ id: p.id, name: editable.length > 1 ? `${w.name} · ${p.name}` : p.name })),
  );
  return (
    <section aria-labelledby="new-book-heading">
      <h2 id="new-book-heading">New book</h2>
      {projects.length === 0 ? (
        <Empty>
          Creating price books is for workspace members allowed to edit them. <AskAnAdmin />
        </Empty>
      ) : (
        <NewBookForm projects={projects} />
      )}
    </section>
  );
}
