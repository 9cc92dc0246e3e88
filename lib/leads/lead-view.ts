import { offeringLabels } from '../books/offering-labels';
import type { DbOrTx } from '../db/client';
import type { Lead, PublicAcceptance } from './schemas';
import type { LeadStatus } from './statuses';
import { findQuoteOfferings, type LeadRow } from './store';

/** What the customer is shown of their acceptance: when, and the day they asked for. */
export function toPublicAcceptance(row: LeadRow): PublicAcceptance {
  return { id: row.id, quoteIntentId: row.quoteIntentId, acceptedAt: row.createdAt.toISOString(), preferredDate: row.preferredDate };
}

/** The acceptance as its `quote_intent.accepted` event carries it (with the contact details). */
export function toAcceptanceEventData(row: LeadRow) {
  return {
    acceptance: {
      id: row.id,
      quoteIntentId: row.quoteIntentId,
      receiptId: row.receiptId,
      receiptSignature: row.receiptSignature,
      total: { amountMinor: Number(row.totalMinor), currency: row.currency },
      contact: { name: row.contactName, email: row.contactEmail, phone: row.contactPhone },
      note: row.note,
      preferredDate: row.preferredDate,
      consentText: row.consentText,
      createdAt: row.createdAt.toISOString(),
    },
  };
}

/** Leads as the business's members see them, each with the offering its quote asked for, named as the Quotes list names it. */
export async function toLeads(db: DbOrTx, rows: LeadRow[]): Promise<Lead[]> {
  const offerings = await findQuoteOfferings(db, rows.map((r) => r.quoteIntentId));
  const labelOf = await offeringLabels(db, [...offerings.values()].map((offering) => offering.bookVersionId));
  return rows.map((row) => {
    const offering = offerings.get(row.quoteIntentId);
    return {
      id: row.id,
      quoteIntentId: row.quoteIntentId,
      receiptId: row.receiptId,
      receiptSignature: row.receiptSignature,
      status: row.status as LeadStatus,
      contact: row.erasedAt || row.contactName === null ? null : { name: row.contactName, email: row.contactEmail, phone: row.contactPhone },
      note: row.note,
      preferredDate: row.preferredDate,
      consentText: row.consentText,
      total: { amountMinor: Number(row.totalMinor), currency: row.currency },
      offeringId: offering?.offeringId ?? '',
      offeringLabel: offering ? labelOf(offering.bookVersionId, offering.offeringId) : null,
      createdAt: row.createdAt.toISOString(),
      statusChangedAt: row.statusChangedAt?.toISOString() ?? null,
      erasedAt: row.erasedAt?.toISOString() ?? null,
    };
  });
}
