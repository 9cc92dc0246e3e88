'use client';

import { useEffect, useRef, useState } from 'react';
import 'swagger-ui-dist/swagger-ui.css';

/** Swagger UI on the service's own OpenAPI document; loaded in the browser only (it is large). */
export function ApiReference() {
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let cancelled = false;
    import('swagger-ui-dist')
      .then(({ SwaggerUIBundle }) => {
        if (cancelled || !container.current) return;
        SwaggerUIBundle({ domNode: container.current, url: '/v1/openapi.json', deepLinking: true, docExpansion: 'none', defaultModelsExpandDepth: 0 });
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
    };
  }, []);
  if (failed) return <p className="error">The API reference could not be loaded. The document itself is at /v1/openapi.json.</p>;
  return (
    <div ref={container} aria-busy="true" data-testid="api-reference">
      <p className="loading" role="status">
        Loading the API reference…
      </p>
    </div>
  );
}
