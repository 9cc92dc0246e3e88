export default function Home() {
  return (
    <main style={{ maxWidth: 640, margin: '4rem auto', padding: '0 1rem', lineHeight: 1.5 }}>
      <h1>Quote Pricing Service</h1>
      <p>Deterministic quotes against published, versioned price books, each with an immutable receipt.</p>
      <ul>
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
