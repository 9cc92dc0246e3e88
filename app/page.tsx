import { IntentLink } from './_components/intent-link';
import { findDemoBusiness } from '@/lib/businesses/find-demo-business';
import { systemContext } from '@/lib/context/verb-context';
import { getDb } from '@/lib/db/client';
import { logger } from '@/lib/observability/logger';

// The demo business exists only on a seeded database; read it per request.
export const dynamic = 'force-dynamic';

export default async function Home() {
  const demo = await findDemoBusiness(systemContext(getDb(), 'root-page')).catch((error: unknown) => {
    logger.warn({ err: error }, 'root page: demo business not read');
    return null;
  });
  return (
    <main className="main" style={{ margin: '3rem auto', maxWidth: 760 }}>
      <h1>Quote Pricing Service</h1>
      <p>
        Businesses publish versioned price books; their customers, their team and their software ask for quotes. Every quote is priced
        deterministically against the version published at that moment and keeps an immutable receipt that explains, step by step, how its price
        came to be. Webhooks tell your systems what happened, signed.
      </p>
      <div className="grid" style={{ marginTop: '1.5rem' }}>
        <section className="card" aria-labelledby="home-portal">
          <h2 id="home-portal" style={{ marginTop: 0 }}>
            Business Portal
          </h2>
          <p className="muted">Edit prices and see the impact before you publish, manage members, API keys and webhooks, and trace any quote.</p>
          <IntentLink className="button primary" href="/portal">
            Sign in to the portal
          </IntentLink>
        </section>
        <section className="card" aria-labelledby="home-api">
          <h2 id="home-api" style={{ marginTop: 0 }}>
            API
          </h2>
          <p className="muted">Quotes with API keys, the account-scoped surface, request logs and webhooks, all under /v1.</p>
          <div className="row">
            <IntentLink className="button" href="/docs">
              API reference
            </IntentLink>
            <a href="/v1/openapi.json">OpenAPI document</a>
            <a href="/v1/status">Status</a>
          </div>
        </section>
        {demo && (
          <section className="card" aria-labelledby="home-demo">
            <h2 id="home-demo" style={{ marginTop: 0 }}>
              Try it as a customer
            </h2>
            <p className="muted">The hosted quote page of the demo business, {demo.name}: answer a few questions, get a price and its receipt.</p>
            <a className="button" href={`/q/${demo.id}`}>
              Get a price from {demo.name}
            </a>
          </section>
        )}
      </div>
    </main>
  );
}
