import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventsFile, generatedHeader, operationsFile, resourcesFile, sdkSourceDocument } from '../../scripts/sdk-generate';

// The SDK's generated part (sdk/src/generated/) is made from the OpenAPI document: a contract
// changed without `npm run sdk:generate` leaves the SDK behind the API, and fails here.
const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, 'sdk/src/generated', file), 'utf8');

describe('the SDK', () => {
  const { document, sha256 } = sdkSourceDocument();

  it('has types made from the current OpenAPI document (else: npm run sdk:generate)', () => {
    expect(read('openapi.ts').split('\n')[0] + '\n').toBe(generatedHeader(sha256));
  });

  it('has the operation table of the current document, every operation by its id', () => {
    expect(read('operations.ts')).toBe(operationsFile(document, sha256));
  });

  it('has the resource table of the current document (tags and operation ids)', () => {
    expect(read('resources.ts')).toBe(resourcesFile(document, sha256));
  });

  it('has the webhook event union of the current event catalogue', () => {
    expect(read('events.ts')).toBe(eventsFile(sha256));
  });
});
