'use client';

import { IntentLink } from '../../_components/intent-link';
import { Empty, EnvironmentBadge, ErrorMessage, Loading } from '../_components/ui';
import { useBooks, useBusinesses, useWorkspaces } from '../_components/queries';
import { BooksTable } from './books/_components/books-table';
import { mayEditBranding, mayReadBusiness, PERMISSION_WORDS, ROLE_WORDS } from '../_components/portal-access';
import { BusinessFigures } from './_components/business-figures';

export default function OverviewPage() {
  const workspaces = useWorkspaces();
  const businesses = useBusinesses();
  const books = useBooks();
  const hasWorkspaces = workspaces.data?.workspaces.length !== 0;

  return (
    <>
      <h1>Overview</h1>
      {/* The page appears at once when what it lists has come: sections that fill in one by one would
          push each other down (layout shift). The figures, which come last, sit at the end of the page. */}
      {workspaces.isPending || businesses.isPending || (hasWorkspaces && books.isPending) ? (
        <Loading what="your overview" />
      ) : (
        <>
          {/* Projects are a workspace's: a person who only belongs to businesses has none to see. */}
          {hasWorkspaces && (
            <section aria-labelledby="projects-heading">
              <h2 id="projects-heading">Projects and what is published where</h2>
              {workspaces.isPending || books.isPending ? (
                <Loading what="projects" />
              ) : workspaces.isError ? (
                <ErrorMessage error={workspaces.error} />
              ) : books.isError ? (
                <ErrorMessage error={books.error} />
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
                    <p className="muted">
                      {w.permissions.length === 0
                        ? 'In this workspace you can read its businesses, price books and quote traces.'
                        : `In this workspace you can ${w.permissions.map((p) => PERMISSION_WORDS[p] ?? p).join('; ')}.`}
                    </p>
                  </div>
                ))
              )}
            </section>
          )}
          <section aria-labelledby="businesses-heading">
            <h2 id="businesses-heading">Businesses</h2>
            {businesses.isPending ? (
              <Loading what="businesses" />
            ) : businesses.isError ? (
              <ErrorMessage error={businesses.error} />
            ) : businesses.data.businesses.length === 0 ? (
              <Empty>You are not a member of any business yet. Ask a workspace admin to invite you.</Empty>
            ) : (
              <div>
                {businesses.data.businesses.map((b) => (
                  <article key={b.id} className="card" aria-label={b.branding.displayName}>
                    <strong>{b.branding.displayName}</strong>
                    <div className="muted">
                      {b.connection
                        ? `${b.connection.kind === 'direct' ? 'Self-run' : 'Managed'} · connection ${b.connection.status}`
                        : 'Not connected to a project'}
                    </div>
                    <div className="muted">{b.yourMembership ? `Your role: ${ROLE_WORDS[b.yourMembership.role].name}. ${ROLE_WORDS[b.yourMembership.role].can}.` : 'Through your workspace'}</div>
                    <div className="row" style={{ marginTop: '0.5rem' }}>
                      {(!workspaces.data || mayReadBusiness(b, workspaces.data.workspaces)) && (
                        <>
                          <IntentLink href={`/portal/quotes?business=${b.id}`}>Quotes</IntentLink>
                          <IntentLink href={`/portal/members?business=${b.id}`}>Members</IntentLink>
                          <IntentLink href={`/portal/branding?business=${b.id}`}>
                            {workspaces.data && mayEditBranding(b, workspaces.data.workspaces) ? 'Branding' : 'Branding (read-only)'}
                          </IntentLink>
                        </>
                      )}
                      <a href={`/q/${b.id}`} target="_blank" rel="noreferrer">
                        Hosted quote page ↗
                      </a>
                    </div>
                    {workspaces.data && mayReadBusiness(b, workspaces.data.workspaces) && <BusinessFigures business={b} workspaces={workspaces.data.workspaces} />}
                  </article>
                ))}
              </div>
            )}
          </section>
        </>
      )}
    </>
  );
}
