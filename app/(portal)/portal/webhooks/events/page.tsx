import { IntentLink } from '../../../../_components/intent-link';
import { EVENT_TYPES } from '@/lib/events/event-types';
import { EVENT_CATALOGUE, exampleEnvelope } from '@/lib/event-catalogue/catalogue';

/** Every event webhooks deliver, when, to which environment, and what a delivery looks like. */
export default function EventCataloguePage() {
  return (
    <>
      <p style={{ marginTop: 0 }}>
        <IntentLink href="/portal/webhooks">← Webhooks</IntentLink>
      </p>
      <h1>Event catalogue</h1>
      <p className="muted">
        What your endpoints can receive. Each delivery is a signed POST with this envelope; deduplicate on <code>id</code> (also sent as{' '}
        <code>Service-Event-Id</code>). The same list, for code: <a href="/v1/event-types">/v1/event-types</a>.
      </p>
      <nav aria-label="Event types" className="card">
        <ul className="event-index">
          {EVENT_TYPES.map((type) => (
            <li key={type}>
              <a href={`#${type}`}>
                <code>{type}</code>
              </a>{' '}
              <span className="muted">— {EVENT_CATALOGUE[type].meaning.split('.')[0]}</span>
            </li>
          ))}
        </ul>
      </nav>
      {EVENT_TYPES.map((type) => (
        <section key={type} id={type} className="card" aria-labelledby={`${type}-heading`}>
          <h2 id={`${type}-heading`} style={{ marginTop: 0 }}>
            <code>{type}</code>
          </h2>
          <p>
            {EVENT_CATALOGUE[type].meaning}. Delivered to {EVENT_CATALOGUE[type].environment} endpoints.
          </p>
          <details>
            <summary>Example delivery</summary>
            <pre className="body-view" tabIndex={0} aria-label={`Example ${type} delivery`}>
              {JSON.stringify(exampleEnvelope(type), null, 2)}
            </pre>
          </details>
        </section>
      ))}
    </>
  );
}
