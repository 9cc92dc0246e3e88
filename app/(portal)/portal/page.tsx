'use client';

import Link from 'next/link';
import { Empty, EnvironmentBadge, ErrorMessage, Loading } from '../_components/ui';
import { useBooks, useBusinesses, useWorkspaces } from '../_components/queries';
import { BooksTable } from './books/_components/books-table';

export default function OverviewPage() {
  const workspaces = useWorkspaces();
  const businesses = useBusinesses();
  const books = useBooks();

  return (
    <>
      <h1>Overview</h1>
      <section aria-labelledby="businesses-heading">
        <h2 id="businesses-heading">Businesses</h2>
        {businesses.isPending ? (
          <Loading what="businesses" />
        ) : businesses.isError ? (
          <ErrorMessage error={businesses.error} />
        ) : businesses.data.businesses.length === 0 ? (
          <Empty>You are not a member of any business yet. Ask a workspace admin to invite you.</Empty>
        ) : (
          <div className="grid">
            {businesses.data.businesses.map((b) => (
              <article key={b.id} className="card" aria-label={b.branding.displayName}>
                <strong>{b.branding.displayName}</strong>
                <div className="muted">
                  {b.connection
                    ? `${b.connection.kind === 'direct' ? 'Self-run' : 'Managed'} · connection ${b.connection.status}`
                    : 'Not connected to a project'}
                </div>
                <div className="muted">Your role: {b.yourMembership?.role ?? 'workspace access'}</div>
                <div className="row" style={{ marginTop: '0.5rem' }}>
                  <Link href={`/portal/members?business=${b.id}`}>Members</Link>
                  <Link href={`/portal/branding?business=${b.id}`}>Branding</Link>
                  <a href={`/q/${b.id}`} target="_blank" rel="noreferrer">
                    Hosted quote page ↗
                  </a>
                </div>
              </article>
            ))}
          </div>
        )}
      </section>

      <section aria-labelledby="projects-heading">
        <h2 id="projects-heading">Projects and what is published where</h2>
        {workspaces.isPending || books.isPending ? (
          <Loading what="projects" />
        ) : workspaces.isError ? (
          <ErrorMessage error={workspaces.error} />
        ) : books.isError ? (
          <ErrorMessage error={books.error} />
        ) : workspaces.data.workspaces.length === 0 ? (
          <Empty>You are not a member of a workspace, so there are no projects to show.</Empty>
        ) : (
          workspaces.data.workspaces.map((w) => (
            <div key={w.id} className="card">
              <h3 style={{ marginTop: 0 }}>{w.name}</h3>
              {w.projects.map((p) => {
                const projectBooks = books.data.books.filter((b) => b.projectId === p.id);
                return (
                  <div key={p.id} style={{ marginBottom: '1rem' }}>
                    <div className="row">
                      <strong>{p.name}</strong>
                      {p.environments.map((e) => (
                        <EnvironmentBadge key={e.id} environment={e.kind} />
                      ))}
                    </div>
                    {projectBooks.length === 0 ? (
                      <p className="muted">No price books yet.</p>
                    ) : (
                      <BooksTable books={projectBooks} ariaLabel={`Price books of ${p.name}`} />
                    )}
                  </div>
                );
              })}
              <p className="muted">Your permissions: {w.permissions.join(', ') || 'none'}</p>
            </div>
          ))
        )}
      </section>
    </>
  );
}
