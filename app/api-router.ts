// The API's one way in, in production: scripts/serve.mjs hands every /v1 request to this router
// (bundled by scripts/build-api-router.mjs into .next/api-router.mjs); Next.js serves the portal,
// the hosted page, /api/auth and /api/inngest, and never loads a /v1 route module. `npm run dev`
// and the in-process test harness use the same router on the same route table.
import { createRouter } from '@/lib/http/router';
import { jobEngine } from '@/lib/jobs/in-process-runner';
import { useInngestSender } from '@/lib/jobs/forward-to-inngest';
import { ROUTE_TABLE } from './v1/route-table';

export const apiRouter = createRouter(ROUTE_TABLE);

// With Inngest as the job engine, writes hand their deliveries to its event API at once; the
// SDK is loaded only then.
if (jobEngine() === 'inngest') useInngestSender(async (events) => (await import('../inngest/client')).inngest.send(events));
