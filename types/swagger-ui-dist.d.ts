// The part of swagger-ui-dist's browser bundle the API reference page uses.
declare module 'swagger-ui-dist' {
  export function SwaggerUIBundle(options: {
    domNode: HTMLElement;
    url: string;
    deepLinking?: boolean;
    docExpansion?: 'list' | 'full' | 'none';
    defaultModelsExpandDepth?: number;
  }): unknown;
}
