import type { Metadata } from 'next';
import { IntentLink } from '../_components/intent-link';
import { ApiReference } from './api-reference';

export const metadata: Metadata = {
  title: 'API reference — Quote Pricing Service',
  description: 'Every route of the Quote Pricing Service API, with its request, its answers and its error codes.',
};

/** The OpenAPI document (/v1/openapi.json), read in Swagger UI: every route, its schemas and errors. */
export default function ApiDocsPage() {
  return (
    <main style={{ maxWidth: 1200, margin: '0 auto', padding: '1.5rem 1rem' }}>
      <p style={{ margin: 0 }}>
        <IntentLink href="/">← Quote Pricing Service</IntentLink>
      </p>
      <h1 style={{ marginBottom: '0.25rem' }}>API reference</h1>
      <p className="muted" style={{ marginTop: 0 }}>
        Built from the same contracts that validate every request, so it cannot drift from the service. The raw document:{' '}
        <a href="/v1/openapi.json">/v1/openapi.json</a>.
      </p>
      <ApiReference />
    </main>
  );
}
