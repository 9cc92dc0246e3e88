import Link from 'next/link';

export default function Home() {
  return (
    <main className="main" style={{ margin: '3rem auto' }}>
      <h1>Quote Pricing Service</h1>
      <p>Deterministic quotes against published, versioned price books, each with an immutable receipt.</p>
      <ul>
        <li>
          <Link href="/portal">Business Portal</Link>
        </li>
        <li>
          <a href="/v1/openapi.json">OpenAPI document</a>
        </li>
        <li>
          <a href="/v1/status">Service status</a>
        </li>
      </ul>
    </main>
  );
}
