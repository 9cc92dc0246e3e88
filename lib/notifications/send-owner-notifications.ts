import type { VerbContext } from '../context/verb-context';
import { formatMoney } from '../pricing/format-money';
import { emailConfigured, emailSender, smtpTransport } from './mailer';
import {
  claimDueNotifications,
  findOwnerEmails,
  markNotification,
  readBusinessName,
  readHeldQuoteForEmail,
  readLeadForEmail,
  readPauseEventForEmail,
  type ClaimedNotification,
} from './store';
import { settings } from '../settings/settings';

/** Tries per email; a failed send is tried again after RETRY_MS. */
const MAX_ATTEMPTS = 5;
const RETRY_MS = 5 * 60_000;
const BATCH = 50;

/**
 * The minute job: sends the queued emails to business owners (a new lead, a held quote), at
 * most MAX_ATTEMPTS times each. Nothing is logged of what they say: a lead's name is personal data.
 */
export async function sendOwnerNotifications(ctx: VerbContext): Promise<number> {
  if (!emailConfigured()) return 0;
  const { db, now } = ctx;
  const due = await claimDueNotifications(db, { now, retryAt: new Date(now.getTime() + RETRY_MS), maxAttempts: MAX_ATTEMPTS, limit: BATCH });
  let sent = 0;
  for (const notification of due) {
    try {
      const email = await compose(ctx, notification);
      if (email) {
        const transport = await smtpTransport();
        await transport.sendMail({ from: emailSender(), ...email });
      }
      await markNotification(db, notification.id, { sentAt: now });
      if (email) sent++;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await markNotification(db, notification.id, { error: message });
      ctx.log.warn({ notificationId: notification.id, attempt: notification.attempts, err: message }, 'owner email not sent');
    }
  }
  return sent;
}

/** The email, or null when there is nobody to tell (no active owner with an email) or nothing left to say. */
async function compose({ db }: VerbContext, notification: ClaimedNotification): Promise<{ to: string[]; subject: string; text: string } | null> {
  const to = await findOwnerEmails(db, notification.businessId);
  if (to.length === 0) return null;
  const business = await readBusinessName(db, notification.businessId);
  const portal = `${settings().NEXTAUTH_URL ?? 'http://localhost:3000'}/portal`;
  if (notification.kind === 'lead') {
    const lead = await readLeadForEmail(db, notification.subjectId);
    if (!lead) return null;
    const who = lead.contactName ?? 'A customer';
    const price = formatMoney(Number(lead.totalMinor), lead.currency);
    return {
      to,
      subject: `New lead for ${business}: ${who} accepted a quote of ${price}`,
      text: `${who} accepted a quote of ${price} on your hosted quote page and asked to be contacted.\n\nSee how to reach them in your leads: ${portal}/leads?business=${notification.businessId}\n\nQuote reference: ${lead.quoteIntentId}\n`,
    };
  }
  if (notification.kind === 'experiment_paused') {
    const pause = await readPauseEventForEmail(db, notification.subjectId);
    if (!pause) return null;
    const { experiment, arm, reason } = pause;
    return {
      to,
      subject: `Price experiment "${experiment.name}" paused ${arm} (${business})`,
      text: `A guardrail of the price experiment "${experiment.name}" (${experiment.environment}) paused ${arm}: its customers are priced with the control from now on.\n\n${reason}.\n\nSee the experiment: ${portal}/books/${experiment.bookId}\n`,
    };
  }
  const quote = await readHeldQuoteForEmail(db, notification.subjectId);
  // Decided before the email went out: nothing waits any more.
  if (!quote || quote.state !== 'awaiting_approval' || quote.reviewDecision !== null) return null;
  const currency = (quote.response as { currency: string }).currency;
  const low = formatMoney(Number(quote.lowCents ?? 0), currency);
  const high = formatMoney(Number(quote.highCents ?? 0), currency);
  const price = low === high ? low : `${low}–${high}`;
  return {
    to,
    subject: `A quote of ${price} is waiting for your review (${business})`,
    text: `An integration made a quote of ${price} that ${business} reviews before it is sent.\n\nApprove or decline it: ${portal}/review?business=${notification.businessId}\n\nQuote id: ${notification.subjectId}\n`,
  };
}
