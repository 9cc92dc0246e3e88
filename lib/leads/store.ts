import type { DbOrTx } from '../db/client';
import { afterTimeIdCursor } from '../db/cursors';
import type { Prisma } from '../db/generated/client';
import type { LeadStatus } from './schemas';

/**
 * The leads' store: the only place with SQL for quote acceptances (`quote_acceptances`), and for
 * erasing a lead's personal data from the event that carried it.
 */

const leadSelect = {
  id: true,
  quoteIntentId: true,
  receiptId: true,
  receiptSignature: true,
  workspaceId: true,
  environmentId: true,
  businessId: true,
  totalMinor: true,
  currency: true,
  contactName: true,
  contactEmail: true,
  contactPhone: true,
  note: true,
  preferredDate: true,
  consentText: true,
  status: true,
  statusChangedAt: true,
  erasedAt: true,
  createdAt: true,
} satisfies Prisma.QuoteAcceptanceSelect;

export type LeadRow = Prisma.QuoteAcceptanceGetPayload<{ select: typeof leadSelect }>;

export type NewAcceptance = Omit<Prisma.QuoteAcceptanceUncheckedCreateInput, 'status' | 'statusChangedAt' | 'statusChangedBy' | 'erasedAt' | 'erasedBy'> & {
  id: string;
  createdAt: Date;
};

/** Writes the acceptance unless the quote has one already (a concurrent one won): true when written. */
export async function insertAcceptance(db: DbOrTx, acceptance: NewAcceptance): Promise<boolean> {
  const { count } = await db.quoteAcceptance.createMany({ data: [acceptance], skipDuplicates: true });
  return count === 1;
}

export async function findAcceptanceOfQuote(db: DbOrTx, quoteIntentId: string): Promise<LeadRow | null> {
  return db.quoteAcceptance.findUnique({ where: { quoteIntentId }, select: leadSelect });
}

export type LeadsQuery = { businessId: string; status?: LeadStatus; limit: number; cursor?: string };

/** A business's leads, newest first, keyset-paginated by (created_at, id), each with the offering asked for. */
export async function listLeadsOfBusiness(db: DbOrTx, query: LeadsQuery) {
  const rows = await db.quoteAcceptance.findMany({
    where: { businessId: query.businessId, ...(query.status ? { status: query.status } : {}), ...afterTimeIdCursor(query.cursor) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
    select: leadSelect,
  });
  return rows;
}

export async function findLead(db: DbOrTx, key: { id: string; businessId: string }): Promise<LeadRow | null> {
  return db.quoteAcceptance.findFirst({ where: key, select: leadSelect });
}

/** What each quote asked for, by intent id: the offering and its label on the receipt. */
export async function findQuoteOfferings(db: DbOrTx, quoteIntentIds: string[]) {
  const intents = await db.quoteIntent.findMany({
    where: { id: { in: quoteIntentIds } },
    select: { id: true, inputs: true, receipt: { select: { computation: true } } },
  });
  return new Map(
    intents.map((i) => {
      const inputs = i.inputs as { offeringId: string };
      const computation = i.receipt?.computation as { lineItems?: { label: string }[] } | null;
      return [i.id, { offeringId: inputs.offeringId, offeringLabel: computation?.lineItems?.[0]?.label ?? null }];
    }),
  );
}

export async function updateLeadStatus(db: DbOrTx, change: { id: string; status: LeadStatus; changedBy: string; changedAt: Date }): Promise<LeadRow> {
  return db.quoteAcceptance.update({
    where: { id: change.id },
    data: { status: change.status, statusChangedBy: change.changedBy, statusChangedAt: change.changedAt },
    select: leadSelect,
  });
}

/**
 * Removes a lead's personal data wherever it is stored: the acceptance's contact details and
 * note, the same in the payload of the `quote_intent.accepted` event (deliveries still to be
 * sent then carry the erased payload), and the address and browser the request log kept of the
 * customer's quote and acceptance. The quote, its receipt and the acceptance's binding to them stay.
 */
export async function erasePersonalData(db: DbOrTx, erasure: { id: string; quoteIntentId: string; erasedBy: string; erasedAt: Date }): Promise<LeadRow> {
  const lead = await db.quoteAcceptance.update({
    where: { id: erasure.id },
    data: { contactName: null, contactEmail: null, contactPhone: null, note: null, erasedBy: erasure.erasedBy, erasedAt: erasure.erasedAt },
    select: leadSelect,
  });
  const events = await db.outboxEvent.findMany({
    where: { subjectId: erasure.quoteIntentId, type: 'quote_intent.accepted' },
    select: { id: true, data: true },
  });
  for (const event of events) {
    const data = event.data as { acceptance: Record<string, unknown> };
    await db.outboxEvent.update({
      where: { id: event.id },
      data: { data: { ...data, acceptance: { ...data.acceptance, contact: null, note: null, erasedAt: erasure.erasedAt.toISOString() } } },
    });
  }
  // The customer's address and browser, in the request log rows of their quote and acceptance.
  // One at a time: inside a transaction the queries share one connection.
  const acceptance = await db.quoteAcceptance.findUniqueOrThrow({ where: { id: erasure.id }, select: { requestCorrelationId: true } });
  const intent = await db.quoteIntent.findUniqueOrThrow({ where: { id: erasure.quoteIntentId }, select: { requestCorrelationId: true } });
  await db.requestLog.updateMany({
    where: { requestId: { in: [acceptance.requestCorrelationId, intent.requestCorrelationId] } },
    data: { ip: null, userAgent: null },
  });
  return lead;
}

/** How many leads arrived since `since`, and how many are still new. */
export async function countLeads(db: DbOrTx, where: { businessId: string; since: Date }) {
  const [thisWeek, waiting] = await Promise.all([
    db.quoteAcceptance.count({ where: { businessId: where.businessId, createdAt: { gte: where.since } } }),
    db.quoteAcceptance.count({ where: { businessId: where.businessId, status: 'new' } }),
  ]);
  return { thisWeek, waiting };
}
