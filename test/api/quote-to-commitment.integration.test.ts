import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { demoBookArtifact, demoExample } from '../../lib/books/demo-book';
import { issueFormToken } from '../../lib/leads/form-token';
import { countLeads } from '../../lib/leads/store';
import { PIPELINE_COUNT_CAP, pipelineCountText } from '../../lib/overview/pipeline-count';
import { countExpiringIntents, countInboxOf } from '../../lib/overview/store';
import { expireQuoteIntents } from '../../lib/quotes/expire-quote-intents';
import { api, type ApiResponse } from '../support/api-client';
import { flushRequestLog, loggedRequest } from '../support/request-log';
import { createPerson, createTenant, quoteRequest, testContext, testDb, type Person, type Tenant } from '../../lib/testing/factories';

/**
 * Issue 27, the way from a price to a commitment over real HTTP and PostgreSQL: held quotes
 * reviewed by the business, prices with a validity, customers accepting on the hosted page, the
 * business's leads, and commitments bound to what the customer saw.
 */

const DAY_MS = 86_400_000;
/** The day `days` from now, as the form sends it. */
const dayIn = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
const instant = { service: 'window_cleaning', selections: demoExample.factors };
const siteVisit = { service: 'window_cleaning', selections: { home_size: 'medium', storeys: '4_plus', access: 'easy' } };

const accountQuote = (tenant: Tenant, body: unknown, key = tenant.keys.live) =>
  api('POST', `/v1/accounts/${tenant.projectId}/quotes`, { key, headers: { 'idempotency-key': randomUUID() }, body });
const review = (tenant: Tenant, person: Person, quoteId: string, body: unknown, headers: Record<string, string> = {}) =>
  api('POST', `/v1/businesses/${tenant.businessId}/account-quotes/${quoteId}/review`, { key: person.token, body, headers });
const commit = (tenant: Tenant, quoteId: string, body: Record<string, unknown> = {}) =>
  api('POST', `/v1/accounts/${tenant.projectId}/quotes/${quoteId}/commitment/confirm`, {
    key: tenant.keys.live,
    headers: { 'idempotency-key': randomUUID() },
    body: { external_ref: `order-${randomUUID().slice(0, 8)}`, ...body },
  });

/** A public quote's acceptance, with a form token issued `ageMs` ago (as if the form had been open that long). */
const accept = (businessId: string, quoteIntentId: string, extra: Record<string, unknown> = {}, ageMs = 5_000) =>
  api('POST', `/v1/public_quotes/${quoteIntentId}/acceptance`, {
    body: {
      businessId,
      contact: { name: 'Alex Rivera', email: `alex-${randomUUID().slice(0, 8)}@example.test`, phone: '+1 555 0100' },
      note: 'The side gate is open.',
      preferredDate: dayIn(10),
      consent: true,
      formToken: issueFormToken(quoteIntentId, new Date(Date.now() - ageMs)),
      ...extra,
    },
  });
const publicQuote = async (businessId: string, factors: Record<string, string | null> = demoExample.factors) =>
  (await api('POST', '/v1/public_quotes', { body: { businessId, offeringId: demoExample.offeringId, factors } })).body.data;

async function eventsOf(subjectId: string) {
  return testDb().outboxEvent.findMany({ where: { subjectId }, orderBy: { seq: 'asc' } });
}

function expectAccountError(res: ApiResponse, status: number, code: string, param = '') {
  expect(res.status).toBe(status);
  expect(res.body.error).toMatchObject({ code, param });
}

describe('owners review held quotes', () => {
  let tenant: Tenant;
  let owner: Person;
  let editor: Person;
  let viewer: Person;
  let manager: Person;
  let outsider: Person;
  beforeAll(async () => {
    tenant = await createTenant({ artifact: { ...demoBookArtifact, autonomy: 'approval_first' } });
    [owner, editor, viewer, manager, outsider] = await Promise.all([
      createPerson(tenant, { businessRole: 'owner' }),
      createPerson(tenant, { businessRole: 'editor' }),
      createPerson(tenant, { businessRole: 'viewer' }),
      createPerson(tenant, { permissions: ['businesses:manage'] }),
      createPerson(await createTenant(), { businessRole: 'owner' }),
    ]);
  });

  it('lists an approval-first quote for review with its answers, simulation and signed quote; approved, it is committed', async () => {
    const produced = await accountQuote(tenant, { services: [instant], context: { postcode: 'SW1A 1AA' } });
    expect(produced.body).toMatchObject({ state: 'awaiting_approval', disposition: 'hold', decision: 'priced' });
    const created = Date.parse(produced.body.created);
    expect(Date.parse(produced.body.expires_at)).toBe(created + 30 * DAY_MS);
    const quoteId = produced.body.quote_id;
    expectAccountError(await commit(tenant, quoteId), 409, 'conflict', 'quoteId');

    const inbox = await api('GET', `/v1/businesses/${tenant.businessId}/account-quotes?state=awaiting_approval&review=pending`, { key: viewer.token });
    expect(inbox.status).toBe(200);
    const listed = inbox.body.data.quotes.find((q: { id: string }) => q.id === quoteId);
    expect(listed).toMatchObject({
      environment: 'live',
      state: 'awaiting_approval',
      expired: false,
      request: { services: [instant], context: { postcode: 'SW1A 1AA' } },
      review: null,
      commitment: null,
      signedQuote: { ...produced.body },
    });
    expect(listed.simulation.review_reasons.map((r: { code: string }) => r.code)).toContain('approval_first');
    expect(listed.simulation.total).toMatchObject({ low_cents: produced.body.total.low_cents, high_cents: produced.body.total.high_cents });

    // Readers who cannot review are told why (403); strangers learn nothing (404).
    for (const person of [viewer, editor]) {
      const refused = await review(tenant, person, quoteId, { decision: 'approved' });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toBe('Held quotes can be reviewed by workspace members with "businesses:manage", or by the owner of the business.');
    }
    expect((await review(tenant, outsider, quoteId, { decision: 'approved' })).status).toBe(404);
    expect((await api('GET', `/v1/businesses/${tenant.businessId}/account-quotes`, { key: outsider.token })).status).toBe(404);

    const key = randomUUID();
    const approved = await review(tenant, owner, quoteId, { decision: 'approved', reason: 'Checked the address.' }, { 'idempotency-key': key });
    expect(approved.status).toBe(200);
    expect(approved.body.data.quote).toMatchObject({
      state: 'quoted',
      review: { decision: 'approved', reason: 'Checked the address.', reviewedBy: { id: owner.userId, email: owner.email } },
    });
    // A retry with the same key replays; a second decision is refused.
    const replay = await review(tenant, owner, quoteId, { decision: 'approved', reason: 'Checked the address.' }, { 'idempotency-key': key });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const again = await review(tenant, manager, quoteId, { decision: 'declined', reason: 'Changed my mind' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'already_reviewed', details: { decision: 'approved' } });

    const events = await eventsOf(quoteId);
    expect(events.map((e) => e.type)).toEqual(['account_quote.created', 'account_quote.approved']);
    expect(events[1].data).toMatchObject({ state: 'quoted', quote: { quote_id: quoteId, signature: produced.body.signature }, review: { decision: 'approved', reviewed_by: owner.userId } });
    expect(events[1].businessId).toBe(tenant.businessId);

    const committed = await commit(tenant, quoteId);
    expect(committed.status).toBe(200);
    expect(committed.body).toMatchObject({ object: 'commitment', quote_id: quoteId, confirmed: true });
    const after = await api('GET', `/v1/businesses/${tenant.businessId}/account-quotes/${quoteId}`, { key: owner.token });
    expect(after.body.data.quote.commitment).toMatchObject({ externalRef: committed.body.external_ref });
    const pending = await api('GET', `/v1/businesses/${tenant.businessId}/account-quotes?review=pending`, { key: owner.token });
    expect(pending.body.data.quotes.map((q: { id: string }) => q.id)).not.toContain(quoteId);
  });

  it('records a decline with its reason; a declined quote is refused at commit with quote_declined', async () => {
    const produced = await accountQuote(tenant, { services: [instant] });
    const quoteId = produced.body.quote_id;
    const noReason = await review(tenant, manager, quoteId, { decision: 'declined' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.details.fields.reason).toEqual(['say why the quote is declined']);
    const declined = await review(tenant, manager, quoteId, { decision: 'declined', reason: 'We do not work in that area.' });
    expect(declined.status).toBe(200);
    expect(declined.body.data.quote).toMatchObject({
      state: 'awaiting_approval',
      review: { decision: 'declined', reason: 'We do not work in that area.', reviewedBy: { id: manager.userId } },
    });
    expectAccountError(await commit(tenant, quoteId), 409, 'quote_declined', 'quoteId');
    const listed = await api('GET', `/v1/businesses/${tenant.businessId}/account-quotes?review=declined`, { key: viewer.token });
    expect(listed.body.data.quotes[0]).toMatchObject({ id: quoteId, review: { decision: 'declined' } });
    expect((await eventsOf(quoteId)).map((e) => e.type)).toEqual(['account_quote.created', 'account_quote.declined']);
  });

  it('ends 20 concurrent approvals and declines of one quote in exactly one outcome and one event', async () => {
    const quoteId = (await accountQuote(tenant, { services: [instant] })).body.quote_id;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        review(tenant, i % 2 ? owner : manager, quoteId, i % 2 ? { decision: 'approved' } : { decision: 'declined', reason: `no ${i}` }),
      ),
    );
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.error.code === 'already_reviewed')).toBe(true);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
    const decisions = (await eventsOf(quoteId)).filter((e) => e.type !== 'account_quote.created');
    expect(decisions).toHaveLength(1);
    expect(decisions[0].type).toBe(`account_quote.${won[0].body.data.quote.review.decision}`);
    const stored = await testDb().accountQuote.findUniqueOrThrow({ where: { id: quoteId } });
    expect(stored.reviewDecision).toBe(won[0].body.data.quote.review.decision);
  });

  it('serves the inbox oldest first, one page at a time', async () => {
    const queue = await createTenant({ artifact: { ...demoBookArtifact, autonomy: 'approval_first' } });
    const boss = await createPerson(queue, { businessRole: 'owner' });
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await accountQuote(queue, { services: [instant] })).body.quote_id);
    const url = `/v1/businesses/${queue.businessId}/account-quotes?state=awaiting_approval&review=pending&limit=2`;
    const first = await api('GET', url, { key: boss.token });
    const second = await api('GET', `${url}&cursor=${encodeURIComponent(first.body.data.nextCursor)}`, { key: boss.token });
    expect([...first.body.data.quotes, ...second.body.data.quotes].map((q: { id: string }) => q.id)).toEqual(made);
    expect(second.body.data.nextCursor).toBeNull();
    const newest = await api('GET', `/v1/businesses/${queue.businessId}/account-quotes?review=pending`, { key: boss.token });
    expect(newest.body.data.quotes.map((q: { id: string }) => q.id)).toEqual(made);
    const newestFirst = await api('GET', `/v1/businesses/${queue.businessId}/account-quotes`, { key: boss.token });
    expect(newestFirst.body.data.quotes.map((q: { id: string }) => q.id)).toEqual([...made].reverse());
  });

  it('lists observed quotes of an observe book as what would have been sent', async () => {
    const observing = await createTenant({ artifact: { ...demoBookArtifact, autonomy: 'observe' } });
    const reader = await createPerson(observing, { businessRole: 'viewer' });
    const produced = await accountQuote(observing, { services: [instant] });
    expect(produced.body.state).toBe('observed');
    const listed = await api('GET', `/v1/businesses/${observing.businessId}/account-quotes?state=observed`, { key: reader.token });
    expect(listed.body.data.quotes).toEqual([expect.objectContaining({ id: produced.body.quote_id, state: 'observed', disposition: 'observe' })]);
    // Test quotes are the workspace's (spec 9: a member route uses the business's Live connection).
    const inTest = await accountQuote(observing, { services: [instant] }, observing.keys.test);
    expect((await api('GET', `/v1/businesses/${observing.businessId}/account-quotes`, { key: reader.token })).body.data.quotes).toHaveLength(1);
    const switched = await api('GET', `/v1/businesses/${observing.businessId}/account-quotes?environment=test`, { key: reader.token });
    expect(switched.status).toBe(400);
    expect(switched.body.error.details.fields).toEqual({ environment: ['is not an allowed field'] });
    const manager = await createPerson(observing, { permissions: ['businesses:manage'] });
    const test = await api('GET', `/v1/account-quotes?businessId=${observing.businessId}&environment=test`, { key: manager.token });
    expect(test.body.data.quotes.map((q: { id: string }) => q.id)).toEqual([inTest.body.quote_id]);
  });

  it('counts what waits: the overview and the inbox beside the navigation', async () => {
    const fresh = await createTenant({ artifact: { ...demoBookArtifact, autonomy: 'approval_first' } });
    const [boss, reader] = await Promise.all([createPerson(fresh, { businessRole: 'owner' }), createPerson(fresh, { businessRole: 'viewer' })]);
    await accountQuote(fresh, { services: [instant] });
    await accountQuote(fresh, { services: [instant] });
    await accountQuote(fresh, { services: [instant] }, fresh.keys.test); // Test: not counted
    const quote = await publicQuote(fresh.businessId);
    expect((await accept(fresh.businessId, quote.quoteIntent.id)).status).toBe(201);
    const overview = (await api('GET', `/v1/businesses/${fresh.businessId}/overview`, { key: reader.token })).body.data.overview;
    expect(overview.pipeline).toEqual({ heldQuotes: 2, leadsThisWeek: 1, newLeads: 1, expiringSoon: 0 });
    const bossInbox = (await api('GET', '/v1/me/inbox', { key: boss.token })).body.data.inbox;
    expect(bossInbox).toEqual({ heldQuotes: 2, newLeads: 1, businesses: [{ businessId: fresh.businessId, heldQuotes: 2, newLeads: 1 }] });
    // A viewer cannot review: their inbox counts the leads only.
    expect((await api('GET', '/v1/me/inbox', { key: reader.token })).body.data.inbox.heldQuotes).toBe(0);
    // One price about to run out.
    await testDb().quoteIntent.update({ where: { id: (await publicQuote(fresh.businessId)).quoteIntent.id }, data: { expiresAt: new Date(Date.now() + 3 * DAY_MS) } });
    const soon = (await api('GET', `/v1/businesses/${fresh.businessId}/overview`, { key: reader.token })).body.data.overview;
    expect(soon.pipeline.expiringSoon).toBe(1);
  });
});

describe('what waits is counted up to a cap', () => {
  it('reads at most the cap of leads and of prices running out, and the portal shows the cap as "1,000+"', async () => {
    const fresh = await createTenant();
    const boss = await createPerson(fresh, { businessRole: 'owner' });
    for (let i = 0; i < 3; i++) {
      expect((await accept(fresh.businessId, (await publicQuote(fresh.businessId)).quoteIntent.id)).status).toBe(201);
      const open = (await publicQuote(fresh.businessId)).quoteIntent.id;
      await testDb().quoteIntent.update({ where: { id: open }, data: { expiresAt: new Date(Date.now() + 3 * DAY_MS) } });
    }
    const now = new Date();
    const week = { businessId: fresh.businessId, since: new Date(now.getTime() - 7 * DAY_MS) };
    const expiring = { businessId: fresh.businessId, environmentId: fresh.environments.live, now, until: new Date(now.getTime() + 7 * DAY_MS) };
    expect(await countLeads(testDb(), week, PIPELINE_COUNT_CAP)).toEqual({ thisWeek: 3, waiting: 3 });
    expect(await countLeads(testDb(), week, 2)).toEqual({ thisWeek: 2, waiting: 2 });
    expect(await countExpiringIntents(testDb(), expiring, PIPELINE_COUNT_CAP)).toBe(3);
    expect(await countExpiringIntents(testDb(), expiring, 2)).toBe(2);
    expect((await countInboxOf(testDb(), boss.userId, 2)).map((b) => b.newLeads)).toEqual([2]);
    expect((await api('GET', '/v1/me/inbox', { key: boss.token })).body.data.inbox.newLeads).toBe(3);
    expect([999, 1000, 1234].map(pipelineCountText)).toEqual(['999', '1,000+', '1,000+']);
  });
});

describe('prices have a validity', () => {
  let tenant: Tenant;
  let owner: Person;
  beforeAll(async () => {
    tenant = await createTenant({ artifact: { ...demoBookArtifact, quoteValidityDays: 14 } });
    owner = await createPerson(tenant, { businessRole: 'owner', permissions: ['logs:read'] });
  });

  it('gives a priced intent expiresAt from the version, and after it reads expired on every surface; the receipt stays', async () => {
    const { quoteIntent, quoteReceipt } = await publicQuote(tenant.businessId);
    expect(quoteIntent.status).toBe('succeeded');
    expect(Date.parse(quoteIntent.expiresAt)).toBe(Date.parse(quoteIntent.createdAt) + 14 * DAY_MS);
    const apiKeyBody = quoteRequest(tenant, { idempotencyKey: `expiry-${randomUUID()}` });
    const viaKey = (await api('POST', '/v1/quotes', { key: tenant.keys.live, body: apiKeyBody })).body.data;

    // The clock passes expiresAt.
    const past = new Date(Date.now() - 1000);
    await testDb().quoteIntent.updateMany({ where: { id: { in: [quoteIntent.id, viaKey.quoteIntent.id] } }, data: { expiresAt: past } });

    const read = await api('GET', `/v1/public_quotes/${quoteIntent.id}`);
    expect(read.body.data.quoteIntent.status).toBe('expired');
    expect(read.body.data.quoteReceipt).toEqual(quoteReceipt);
    const trace = await api('GET', `/v1/quote-intents/${quoteIntent.id}/trace`, { key: owner.token });
    expect(trace.body.data.quoteIntent.status).toBe('expired');
    const replay = await api('POST', '/v1/quotes', { key: tenant.keys.live, body: apiKeyBody });
    expect(replay.body.data.quoteIntent.status).toBe('expired');
    const list = (await api('GET', `/v1/businesses/${tenant.businessId}/quotes`, { key: owner.token })).body.data.quotes;
    expect(list.find((q: { id: string }) => q.id === quoteIntent.id).status).toBe('expired');
    const expiredOnly = (await api('GET', `/v1/businesses/${tenant.businessId}/quotes?status=expired`, { key: owner.token })).body.data.quotes;
    expect(expiredOnly.map((q: { id: string }) => q.id).sort()).toEqual([quoteIntent.id, viaKey.quoteIntent.id].sort());
    const succeeded = (await api('GET', `/v1/businesses/${tenant.businessId}/quotes?status=succeeded`, { key: owner.token })).body.data.quotes;
    expect(succeeded.map((q: { id: string }) => q.id)).not.toContain(quoteIntent.id);
    const compared = await api('GET', `/v1/quote-intents/${quoteIntent.id}/comparison?with=${viaKey.quoteIntent.id}`, { key: owner.token });
    expect(compared.status).toBe(200);

    // The customer can no longer accept it, and the page is told why.
    const state = await api('GET', `/v1/public_quotes/${quoteIntent.id}/acceptance`);
    expect(state.body.data).toEqual({ acceptance: null, form: null, refusal: 'expired' });
    const refused = await accept(tenant.businessId, quoteIntent.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('quote_expired');

    // The minute job marks it; the receipt is untouched.
    await expireQuoteIntents(testContext(testDb()));
    expect((await testDb().quoteIntent.findUniqueOrThrow({ where: { id: quoteIntent.id } })).status).toBe('expired');
    expect((await api('GET', `/v1/public_quotes/${quoteIntent.id}`)).body.data.quoteReceipt).toEqual(quoteReceipt);
  });

  it('gives a priced account quote expires_at; past it, it can be neither approved nor committed', async () => {
    const sent = await accountQuote(tenant, { services: [instant] });
    expect(sent.body.state).toBe('quoted');
    expect(Date.parse(sent.body.expires_at)).toBe(Date.parse(sent.body.created) + 14 * DAY_MS);
    const held = await accountQuote(tenant, { services: [siteVisit] });
    expect(held.body.state).toBe('awaiting_approval');
    const unpriced = await accountQuote(tenant, { services: [{ service: 'window_cleaning', selections: {} }] });
    expect(unpriced.body).toMatchObject({ state: 'new', expires_at: null });

    await testDb().accountQuote.updateMany({ where: { id: { in: [sent.body.quote_id, held.body.quote_id] } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectAccountError(await commit(tenant, sent.body.quote_id), 409, 'quote_expired', 'quoteId');
    const approve = await review(tenant, owner, held.body.quote_id, { decision: 'approved' });
    expect(approve.status).toBe(409);
    expect(approve.body.error.code).toBe('quote_expired');
    const view = await api('GET', `/v1/businesses/${tenant.businessId}/account-quotes/${sent.body.quote_id}`, { key: owner.token });
    expect(view.body.data.quote).toMatchObject({ expired: true, state: 'quoted' });
    // Declining needs no valid price.
    expect((await review(tenant, owner, held.body.quote_id, { decision: 'declined', reason: 'Too late' })).status).toBe(200);
  });

  it('never expires prices of a book that says 0 days', async () => {
    const forever = await createTenant({ artifact: { ...demoBookArtifact, quoteValidityDays: 0 } });
    expect((await publicQuote(forever.businessId)).quoteIntent.expiresAt).toBeNull();
    expect((await accountQuote(forever, { services: [instant] })).body.expires_at).toBeNull();
  });
});

describe('customers accept a quote on the hosted page', () => {
  let tenant: Tenant;
  let owner: Person;
  let editor: Person;
  let viewer: Person;
  let manager: Person;
  let outsider: Person;
  beforeAll(async () => {
    tenant = await createTenant();
    [owner, editor, viewer, manager, outsider] = await Promise.all([
      createPerson(tenant, { businessRole: 'owner', permissions: ['logs:read'] }),
      createPerson(tenant, { businessRole: 'editor' }),
      createPerson(tenant, { businessRole: 'viewer' }),
      createPerson(tenant, { permissions: ['businesses:manage'] }),
      createPerson(await createTenant(), { businessRole: 'owner' }),
    ]);
  });

  it('accepts with a form shown a moment ago, binds the receipt, tells the business, and answers the first acceptance again', async () => {
    const { quoteIntent, quoteReceipt } = await publicQuote(tenant.businessId);
    const state = await api('GET', `/v1/public_quotes/${quoteIntent.id}/acceptance`);
    expect(state.status).toBe(200);
    expect(state.body.data).toMatchObject({ acceptance: null, refusal: null, form: { consentText: expect.stringContaining('may contact me about this quote') } });
    const email = `casey-${randomUUID().slice(0, 8)}@example.test`;
    const body = {
      businessId: tenant.businessId,
      contact: { name: 'Casey Jones', email, phone: '+1 555 0199' },
      note: 'Call after 5pm please',
      preferredDate: dayIn(20),
      consent: true,
      formToken: state.body.data.form.token,
    };
    // A token younger than FORM_MIN_AGE_MS is too fast: a person takes longer than that. Dated a
    // minute ahead, it is too young whenever the request arrives (the form's own token could pass
    // 2 s on its way here on a loaded machine).
    const tooFast = await api('POST', `/v1/public_quotes/${quoteIntent.id}/acceptance`, { body: { ...body, formToken: issueFormToken(quoteIntent.id, new Date(Date.now() + 60_000)) } });
    expect(tooFast.status).toBe(400);
    expect(tooFast.body.error.details.fields.formToken).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const accepted = await api('POST', `/v1/public_quotes/${quoteIntent.id}/acceptance`, { body });
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.acceptance).toEqual({ id: expect.any(String), quoteIntentId: quoteIntent.id, acceptedAt: expect.any(String), preferredDate: dayIn(20) });
    expect(accepted.text).not.toContain(email);

    const stored = await testDb().quoteAcceptance.findUniqueOrThrow({ where: { quoteIntentId: quoteIntent.id } });
    expect(stored).toMatchObject({ receiptId: quoteReceipt.id, receiptSignature: quoteReceipt.signature.value, totalMinor: BigInt(quoteReceipt.computation.totalMinor), status: 'new' });
    const [event] = (await eventsOf(quoteIntent.id)).filter((e) => e.type === 'quote_intent.accepted');
    expect(event).toMatchObject({ businessId: tenant.businessId, environmentId: quoteIntent.environmentId });
    expect(event.data).toMatchObject({ acceptance: { contact: { name: 'Casey Jones', email }, receiptSignature: quoteReceipt.signature.value } });

    // Someone else, or other details: refused, without the first person's details.
    const someoneElse = await accept(tenant.businessId, quoteIntent.id, { contact: { name: 'Someone Else', email: 'else@example.test' } });
    expect(someoneElse.status).toBe(409);
    expect(someoneElse.body.error).toMatchObject({ code: 'quote_already_accepted', details: { acceptedAt: accepted.body.data.acceptance.acceptedAt } });
    expect(someoneElse.text).not.toContain(email);
    // The same customer again (another tab, a retry): the first acceptance.
    const again = await api('POST', `/v1/public_quotes/${quoteIntent.id}/acceptance`, { body: { ...body, formToken: issueFormToken(quoteIntent.id, new Date(Date.now() - 5_000)) } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.acceptance.id).toBe(accepted.body.data.acceptance.id);
    expect((await eventsOf(quoteIntent.id)).filter((e) => e.type === 'quote_intent.accepted')).toHaveLength(1);
    expect((await api('GET', `/v1/public_quotes/${quoteIntent.id}/acceptance`)).body.data).toEqual({ acceptance: accepted.body.data.acceptance, form: null, refusal: null });

    // Personal data: redacted in the request log, never in the service's log.
    const logged = await loggedRequest(accepted.headers.get('x-request-id')!);
    const loggedBodies = await testDb().requestLogBody.findFirstOrThrow({ where: { requestId: logged.requestId } });
    expect(loggedBodies.requestBody).toContain('"contact":"[redacted]"');
    expect(loggedBodies.requestBody).toContain('"note":"[redacted]"');
    expect(logged.businessId).toBe(tenant.businessId);
    const againId = again.headers.get('x-request-id')!;
    for (const row of [logged, loggedBodies, await testDb().requestLog.findFirst({ where: { requestId: againId } }), await testDb().requestLogBody.findFirst({ where: { requestId: againId } })]) {
      const text = JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? String(v) : v));
      expect(text).not.toContain(email);
      expect(text).not.toContain('Casey');
      expect(text).not.toContain('555 0199');
    }
    const serverLog = readFileSync(inject('serverLogFile'), 'utf8');
    for (const personal of [email, 'Casey Jones', '555 0199', 'Call after 5pm']) expect(serverLog).not.toContain(personal);
  });

  it('refuses robots, unpriced quotes, quotes of other businesses or surfaces, and unknown quotes', async () => {
    const { quoteIntent } = await publicQuote(tenant.businessId);
    // A body that is not JSON cannot be told apart: the request log keeps none of it.
    const garbled = await api('POST', `/v1/public_quotes/${quoteIntent.id}/acceptance`, {
      rawBody: 'name=Casey+Jones&email=casey.garbled@example.test',
      headers: { 'content-type': 'application/json' },
    });
    expect(garbled.status).toBe(400);
    await flushRequestLog();
    const garbledRow = await testDb().requestLogBody.findFirstOrThrow({ where: { requestId: garbled.headers.get('x-request-id')! } });
    expect(garbledRow.requestBody).toMatch(/^\[not JSON: \d+ bytes not kept/);
    const honeypot = await accept(tenant.businessId, quoteIntent.id, { website: 'https://spam.example' });
    expect(honeypot.status).toBe(400);
    const forged = await accept(tenant.businessId, quoteIntent.id, { formToken: `${Date.now() - 10_000}.forged` });
    expect(forged.status).toBe(400);
    const otherQuoteToken = await accept(tenant.businessId, quoteIntent.id, { formToken: issueFormToken(randomUUID(), new Date(Date.now() - 5000)) });
    expect(otherQuoteToken.status).toBe(400);
    const stale = await accept(tenant.businessId, quoteIntent.id, {}, 25 * 60 * 60 * 1000);
    expect(stale.status).toBe(400);
    const noConsent = await accept(tenant.businessId, quoteIntent.id, { consent: false });
    expect(noConsent.status).toBe(400);
    const past = await accept(tenant.businessId, quoteIntent.id, { preferredDate: dayIn(-3) });
    expect(past.body.error.details.fields.preferredDate).toEqual(['pick a day from today on, within two years']);
    const noWayToReach = await accept(tenant.businessId, quoteIntent.id, { contact: { name: 'Pat' } });
    expect(noWayToReach.body.error.details.fields['contact.email']).toEqual(['give an email address or a phone number']);

    const unpriced = await publicQuote(tenant.businessId, { ...demoExample.factors, storeys: null });
    expect(unpriced.quoteIntent.status).toBe('requires_input');
    const refused = await accept(tenant.businessId, unpriced.quoteIntent.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('quote_not_priced');
    expect((await api('GET', `/v1/public_quotes/${unpriced.quoteIntent.id}/acceptance`)).body.data.refusal).toBe('not_priced');

    const other = await createTenant();
    const theirs = await publicQuote(other.businessId);
    expect((await accept(tenant.businessId, theirs.quoteIntent.id)).status).toBe(404);
    const viaKey = (await api('POST', '/v1/quotes', { key: tenant.keys.live, body: quoteRequest(tenant) })).body.data;
    expect((await accept(tenant.businessId, viaKey.quoteIntent.id)).status).toBe(404);
    expect((await api('GET', `/v1/public_quotes/${viaKey.quoteIntent.id}/acceptance`)).status).toBe(404);
    expect((await accept(tenant.businessId, randomUUID())).status).toBe(404);
    expect(await testDb().quoteAcceptance.count({ where: { quoteIntentId: { in: [quoteIntent.id, unpriced.quoteIntent.id, theirs.quoteIntent.id, viaKey.quoteIntent.id] } } })).toBe(0);
  });

  it('shows leads to the business only; members move them along, viewers read; erasing removes the personal data everywhere', async () => {
    const { quoteIntent, quoteReceipt } = await publicQuote(tenant.businessId);
    const email = `lee-${randomUUID().slice(0, 8)}@example.test`;
    const accepted = await accept(tenant.businessId, quoteIntent.id, { contact: { name: 'Lee Park', email } });
    // The request log's rows of the acceptance (its batch written first); then the erasure can clear them.
    const before = await loggedRequest(accepted.headers.get('x-request-id')!);
    expect(before.userAgent).toEqual(expect.any(String));
    const leads = await api('GET', `/v1/businesses/${tenant.businessId}/leads`, { key: viewer.token });
    expect(leads.status).toBe(200);
    const lead = leads.body.data.leads[0];
    expect(lead).toMatchObject({
      quoteIntentId: quoteIntent.id,
      receiptId: quoteReceipt.id,
      status: 'new',
      contact: { name: 'Lee Park', email, phone: null },
      total: { amountMinor: quoteReceipt.computation.totalMinor, currency: 'USD' },
      offeringId: 'window_cleaning',
      offeringLabel: 'Window cleaning',
    });
    expect((await api('GET', `/v1/businesses/${tenant.businessId}/leads`, { key: manager.token })).status).toBe(200);
    expect((await api('GET', `/v1/businesses/${tenant.businessId}/leads`, { key: outsider.token })).status).toBe(404);

    const url = `/v1/businesses/${tenant.businessId}/leads/${lead.id}`;
    const byViewer = await api('PATCH', url, { key: viewer.token, body: { status: 'contacted' } });
    expect(byViewer.status).toBe(403);
    const byEditor = await api('PATCH', url, { key: editor.token, body: { status: 'contacted' } });
    expect(byEditor.body.data.lead).toMatchObject({ status: 'contacted', statusChangedAt: expect.any(String) });
    expect((await api('PATCH', url, { key: owner.token, body: { status: 'won' } })).body.data.lead.status).toBe('won');
    expect((await api('PATCH', url, { key: owner.token, body: { status: 'sold' } })).status).toBe(400);
    const won = await api('GET', `/v1/businesses/${tenant.businessId}/leads?status=won`, { key: viewer.token });
    expect(won.body.data.leads.map((l: { id: string }) => l.id)).toEqual([lead.id]);

    expect((await api('POST', `${url}/erasure`, { key: editor.token })).status).toBe(403);
    const erased = await api('POST', `${url}/erasure`, { key: owner.token });
    expect(erased.status).toBe(200);
    expect(erased.body.data.lead).toMatchObject({ contact: null, note: null, status: 'erased', erasedAt: expect.any(String), receiptId: quoteReceipt.id });
    // It has left the pipeline: nobody moves it back.
    expect((await api('PATCH', url, { key: owner.token, body: { status: 'new' } })).status).toBe(409);
    expect((await api('PATCH', url, { key: owner.token, body: { status: 'erased' } })).status).toBe(400);
    const row = await testDb().quoteAcceptance.findUniqueOrThrow({ where: { id: lead.id } });
    expect([row.contactName, row.contactEmail, row.contactPhone, row.note]).toEqual([null, null, null, null]);
    const events = await eventsOf(quoteIntent.id);
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain(email);
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain('Lee Park');
    // Nor the request log: where and with what browser the customer asked and accepted.
    const logged = await testDb().requestLog.findMany({ where: { requestId: { in: [quoteIntent.requestCorrelationId, row.requestCorrelationId] } } });
    expect(logged).toHaveLength(2);
    expect(logged.map((r) => [r.ip, r.userAgent])).toEqual([
      [null, null],
      [null, null],
    ]);
    // The quote and its receipt stay.
    expect((await api('GET', `/v1/public_quotes/${quoteIntent.id}`)).body.data.quoteReceipt).toEqual(quoteReceipt);
    expect((await api('POST', `${url}/erasure`, { key: owner.token })).status).toBe(200);
  });

  it('names a lead\'s offering as the Quotes list names it, also when a base override priced it', async () => {
    // A commercial site is priced at a base override: the receipt's first line carries the rule's label.
    const { quoteIntent, quoteReceipt } = await publicQuote(tenant.businessId, { ...demoExample.factors, site_type: 'commercial' });
    expect(quoteReceipt.computation.lineItems[0].label).toMatch(/^Window cleaning \(.+\)$/);
    expect((await accept(tenant.businessId, quoteIntent.id)).status).toBe(201);
    const leads = (await api('GET', `/v1/businesses/${tenant.businessId}/leads`, { key: viewer.token })).body.data.leads;
    const quotes = (await api('GET', `/v1/businesses/${tenant.businessId}/quotes`, { key: viewer.token })).body.data.quotes;
    const named = (list: { quoteIntentId?: string; id?: string; offeringLabel: string | null }[]) =>
      list.find((item) => (item.quoteIntentId ?? item.id) === quoteIntent.id)?.offeringLabel;
    expect(named(leads)).toBe('Window cleaning');
    expect(named(quotes)).toBe('Window cleaning');
  });
});

describe('a commitment binds to what the customer saw', () => {
  it('answers 409 receipt_mismatch naming the difference, and commits when signature and total match', async () => {
    const tenant = await createTenant();
    const produced = (await accountQuote(tenant, { services: [instant] })).body;
    const otherQuote = (await accountQuote(tenant, { services: [{ service: 'gutter_cleaning', selections: { home_size: 'medium', storeys: '2', access: 'difficult' } }] })).body;
    expect(otherQuote.total.high_cents).not.toBe(produced.total.high_cents);

    const wrongSignature = await commit(tenant, produced.quote_id, { receipt_signature: otherQuote.signature.value });
    expectAccountError(wrongSignature, 409, 'receipt_mismatch', 'receipt_signature');
    const wrongTotal = await commit(tenant, produced.quote_id, { expected_total: otherQuote.total });
    expectAccountError(wrongTotal, 409, 'receipt_mismatch', 'expected_total');
    expect(wrongTotal.body.error.message).toContain(`you showed ${otherQuote.total.high_cents}`);
    expect(await testDb().commitment.count({ where: { accountQuoteId: produced.quote_id } })).toBe(0);

    const committed = await commit(tenant, produced.quote_id, { receipt_signature: produced.signature.value, expected_total: produced.total });
    expect(committed.status).toBe(200);
    expect(committed.body.confirmed).toBe(true);
  });
});
