import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoExample } from '../../lib/books/demo-book';
import { outboxEventRow } from '../../lib/events/record-event';
import { payloadWithoutReceiptParts } from '../../lib/events/store';
import { newRequestId } from '../../lib/requestlog/request-id';
import { everyReceiptField, toQuoteResult } from '../../lib/quotes/quote-views';
import { findQuote, insertQuote, type QuoteReceiptRow, type StoredQuote } from '../../lib/quotes/store';
import { RECEIPT_FORMATS, type ReceiptFormat } from '../../lib/receipts/receipt-format';
import { checkSignature, keyRingOf, signDocument, type ReceiptKeyRing, type SignedDocument } from '../../lib/receipts/receipt-signature';
import { currentReceiptSigner, forgetReceiptSigner } from '../../lib/receipts/signing-keys';
import { api, type ApiResponse } from '../support/api-client';
import { createPerson, createTenant, quoteRequest, testDb, type Person, type Tenant } from '../../lib/testing/factories';

/**
 * Issue 42: a receipt is answered in the format it was written and signed in (docs/receipts.md,
 * "Formats"). For every format the code knows, quotes of each surface whose receipts were written
 * in that format, as its code wrote them, are read through every route that answers a receipt:
 * 200 (never a 500 from the response schema), verified with the published keys, and without the
 * fields later formats added. A new format fails here until it has an example below.
 */

const db = testDb();

/**
 * A receipt of each format as its code wrote it: the values of the fields that format added
 * (the fields it lacks are null on its row, as the migrations that added their columns left them).
 * Adding a receipt format: add its example here (docs/receipts.md, "Adding a receipt field").
 */
const FORMAT_EXAMPLES: { [F in ReceiptFormat]: { wrote: string; added: Partial<QuoteReceiptRow> } } = {
  1: { wrote: 'before experiments', added: {} },
  2: {
    wrote: 'priced with an experiment arm',
    added: {
      experiment: {
        arm: 'control',
        bucket: 1234,
        experimentId: randomUUID(),
        subjectDigest: createHash('sha256').update('customer-42', 'utf8').digest('hex'),
      },
    },
  },
};

const formats = Object.keys(RECEIPT_FORMATS).map(Number) as ReceiptFormat[];
const everyField = [...new Set(Object.values(RECEIPT_FORMATS).flat())];

type Surface = 'api' | 'public' | 'member';

describe('receipts of every format, read through the API', () => {
  let tenant: Tenant;
  let owner: Person;

  beforeAll(async () => {
    tenant = await createTenant();
    owner = await createPerson(tenant, { businessRole: 'owner', permissions: ['logs:read'] });
  });

  /** POST a quote of the surface under `idempotencyKey` (the same body each time, so a second POST replays). */
  function postQuote(surface: Surface, idempotencyKey: string): Promise<ApiResponse> {
    switch (surface) {
      case 'api':
        return api('POST', '/v1/quotes', { key: tenant.keys.test, body: quoteRequest(tenant, { idempotencyKey }) });
      case 'public':
        return api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...demoExample, idempotencyKey } });
      case 'member':
        return api('POST', `/v1/businesses/${tenant.businessId}/quotes`, { key: owner.token, body: { bookId: tenant.bookId, ...demoExample, idempotencyKey } });
    }
  }

  /**
   * Stores a quote of the surface whose receipt is in `format`, as that format's code wrote it:
   * a quote made now (its scope, pricing and request fingerprint), written again under a key of
   * its own with the receipt signed as `format` shows it, through the store's one insert (the
   * receipts trigger refuses updates; inserts are how every receipt was written).
   */
  async function storeQuoteInFormat(surface: Surface, format: ReceiptFormat) {
    const made = await postQuote(surface, `template-${randomUUID()}`);
    expect(made.status).toBe(201);
    const template = (await findQuote(db, made.body.data.quoteIntent.id))!;
    const idempotencyKey = `format-${format}-${surface}-${randomUUID()}`;
    const now = new Date();
    const requestCorrelationId = newRequestId();
    const intent = { ...template.intent, id: randomUUID(), idempotencyKey, requestCorrelationId, createdAt: now, updatedAt: now };
    const receipt: QuoteReceiptRow = {
      ...template.receipt,
      id: randomUUID(),
      quoteIntentId: intent.id,
      idempotencyKey,
      requestCorrelationId,
      createdAt: now,
      formatVersion: format,
      ...FORMAT_EXAMPLES[format].added,
    };
    for (const field of everyField) {
      if (!(RECEIPT_FORMATS[format] as readonly string[]).includes(field) && field in receipt) (receipt as Record<string, unknown>)[field] = null;
    }
    for (let attempt = 1; ; attempt++) {
      // What that format's code signed: its fields, and no other.
      const every = everyReceiptField(receipt) as Record<string, unknown>;
      const document: SignedDocument = Object.fromEntries(RECEIPT_FORMATS[format].map((field) => [field, every[field]]));
      const signature = signDocument(await currentReceiptSigner(db, now), document);
      Object.assign(receipt, { signatureKid: signature.kid, signature: signature.value });
      const signed = { ...document, signature };
      const quote: StoredQuote = { intent, receipt };
      const event = {
        ...outboxEventRow(
          {
            type: `quote_intent.${receipt.outcome}`,
            workspaceId: intent.workspaceId,
            projectId: intent.projectId,
            environmentId: intent.environmentId,
            businessId: intent.businessId,
            subjectId: intent.id,
            data: payloadWithoutReceiptParts({ quoteIntent: toQuoteResult(intent, receipt).quoteIntent, quoteReceipt: { computation: null, ...signed } }),
          },
          now,
        ),
        receiptId: receipt.id,
      };
      const written = await insertQuote(db, quote, event, { apiKey: null, bookMustBePrimary: false, publishedVersionId: intent.bookVersionId });
      // Another test file may rotate the signing key meanwhile: sign again, as the service does.
      if (written === 'signer_retired' && attempt < 3) {
        forgetReceiptSigner();
        continue;
      }
      expect(written).toBe('inserted');
      return { intentId: intent.id, eventId: event.id, idempotencyKey, signed };
    }
  }

  /** The status, and the body when it is another (a 500 says why in the log; its body names the request). */
  function expectStatus(response: ApiResponse, status: number, where: string) {
    expect(response.status, `${where}: ${response.text.slice(0, 400)}`).toBe(status);
  }

  /** The receipt as answered: exactly as signed, verified with the published keys, no field of a later format. */
  function expectAsSigned(answered: SignedDocument, { signed, format, ring }: { signed: SignedDocument; format: ReceiptFormat; ring: ReceiptKeyRing }, where: string) {
    expect(answered, where).toEqual(signed);
    expect(Object.keys(answered).sort(), where).toEqual([...RECEIPT_FORMATS[format], 'signature'].sort());
    for (const field of everyField.filter((f) => !(RECEIPT_FORMATS[format] as readonly string[]).includes(f))) {
      expect(answered, `${where}: ${field} is a later format's`).not.toHaveProperty(field);
    }
    expect(checkSignature(answered, ring), where).toEqual({ status: 'verified', kid: signed.signature!.kid });
  }

  it('has an example of every receipt format', () => {
    for (const format of formats) {
      expect(FORMAT_EXAMPLES[format], `an example of receipt format ${format} (add it to FORMAT_EXAMPLES)`).toBeDefined();
    }
    expect(formats.length).toBeGreaterThanOrEqual(2);
  });

  describe.each(formats)('format %i', (format) => {
    it.each<Surface>(['api', 'public', 'member'])('a %s quote: every route answers its receipt as it was signed, and it verifies', async (surface) => {
      const { intentId, eventId, idempotencyKey, signed } = await storeQuoteInFormat(surface, format);
      const keys = await api('GET', '/v1/receipt-signing-keys');
      expect(keys.status).toBe(200);
      const stored = { signed, format, ring: keyRingOf(keys.body) };
      const example = `format ${format} (${FORMAT_EXAMPLES[format].wrote}), ${surface}`;

      const replay = await postQuote(surface, idempotencyKey);
      expectStatus(replay, 201, `${example}: replay`);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expectAsSigned(replay.body.data.quoteReceipt, stored, `${example}: replayed POST`);

      const trace = await api('GET', `/v1/quote-intents/${intentId}/trace`, { key: owner.token });
      expectStatus(trace, 200, `${example}: trace`);
      expectAsSigned(trace.body.data.quoteReceipt, stored, `${example}: trace`);
      expect(trace.body.data.experiment === null, `${example}: the trace's experiment`).toBe(!('experiment' in signed) || signed.experiment === null);

      const verification = await api('POST', `/v1/quote-intents/${intentId}/verification`, { key: owner.token });
      expectStatus(verification, 200, `${example}: verification`);
      expect(verification.body.data.signature.status, `${example}: verification`).toBe('verified');
      expect(verification.body.data.verified, `${example}: verification`).toBe(true);

      if (surface === 'api') {
        const one = await api('GET', `/v1/quotes/${intentId}`, { key: tenant.keys.test });
        expectStatus(one, 200, `${example}: GET /v1/quotes/{id}`);
        expectAsSigned(one.body.data.quoteReceipt, stored, `${example}: GET /v1/quotes/{id}`);

        const list = await api('GET', '/v1/quotes?limit=100', { key: tenant.keys.test });
        expectStatus(list, 200, `${example}: GET /v1/quotes`);
        const listed = list.body.data.quotes.find((q: { quoteIntent: { id: string } }) => q.quoteIntent.id === intentId);
        expectAsSigned(listed.quoteReceipt, stored, `${example}: GET /v1/quotes`);

        // The outcome event, as its webhook deliveries (and `qps listen`) send it.
        const event = await api('GET', `/v1/events/${eventId}`, { key: tenant.keys.test });
        expectStatus(event, 200, `${example}: GET /v1/events/{id}`);
        expectAsSigned(event.body.data.event.data.quoteReceipt, stored, `${example}: webhook payload`);
      }
      if (surface === 'public') {
        const fetched = await api('GET', `/v1/public_quotes/${intentId}`);
        expectStatus(fetched, 200, `${example}: GET /v1/public_quotes/{id}`);
        expectAsSigned(fetched.body.data.quoteReceipt, stored, `${example}: GET /v1/public_quotes/{id}`);
      }
    });
  });
});
