import { Inngest } from 'inngest';

/** The Inngest client. Functions only call domain code (lib/jobs); state stays in PostgreSQL. */
export const inngest = new Inngest({ id: 'quote-pricing-service' });
