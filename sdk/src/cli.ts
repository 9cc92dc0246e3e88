#!/usr/bin/env node
// The local loop of an integration, in the Test environment only (a Live key is refused):
// - `qps listen --forward-to http://localhost:4000/webhooks`: the environment's events, as they
//   happen, forwarded to a local URL, signed like real deliveries with a secret printed once,
//   each attempt shown with its status and time, failures retried on the service's schedule (or
//   the compressed one, with --compressed);
// - `qps trigger <event type>`: the service does something real in Test that emits it (a quote,
//   an account-surface quote, a key made, rotated and revoked, a book republished, a test event);
// - `qps send --type … (--data file.json | --example) --forward-to … --secret …`: one signed event
//   with a body of your choosing (or the catalogue's example), to see how the app handles it;
// - `qps resend <event id> --forward-to … --secret …`: an event of the Test environment, again;
// - `qps logs tail`: the key's environment's requests, as they are made.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createClient } from './client.js';
import { signWebhook } from './webhooks.js';

const USAGE = `usage:
  qps listen --forward-to <url> [--compressed] [--secret whsec_…] [--after <event id>]
  qps trigger <event type> [--business <id>] [--book <id>] [--endpoint <id>]
      quote_intent.*: the business and book to quote (or QPS_BUSINESS_ID, QPS_BOOK_ID);
      book_version.published: the book (or QPS_BOOK_ID); webhook.test: the endpoint
  qps send --type <event type> (--data <file.json> | --example) --forward-to <url> --secret whsec_…
  qps resend <event id> --forward-to <url> --secret whsec_…
  qps logs tail
  QPS_API_KEY   a Test API key (listen, resend: events:listen; trigger: events:trigger and quotes:write;
                logs: logs:read), or --api-key
  QPS_BASE_URL  the service, default http://localhost:3000 (or --base-url)`;

type Ready = { after: string | null; retrySchedule: { standardMs: number[]; compressedMs: number[] } };
type Envelope = { id: string; type: string };

class UsageError extends Error {}

const ATTEMPT_TIMEOUT_MS = 10_000;
const time = () => new Date().toISOString().slice(11, 19);
const inWords = (ms: number) => (ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'forward-to': { type: 'string' },
        type: { type: 'string' },
        data: { type: 'string' },
        example: { type: 'boolean', default: false },
        business: { type: 'string' },
        book: { type: 'string' },
        endpoint: { type: 'string' },
        compressed: { type: 'boolean', default: false },
        secret: { type: 'string' },
        after: { type: 'string' },
        'api-key': { type: 'string' },
        'base-url': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { positionals, values } = parsed;
  const command = positionals[0] === 'trigger' || positionals[0] === 'resend' ? positionals[0] : positionals.join(' ');
  if (values.help || !['listen', 'send', 'logs tail', 'trigger', 'resend'].includes(command)) throw new UsageError(command ? `Unknown command "${command}".` : 'Name a command.');
  const baseUrl = (values['base-url'] ?? process.env.QPS_BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
  if (command === 'send') {
    if (!values.type || (!values.data && !values.example) || !values['forward-to'] || !values.secret) {
      throw new UsageError('send needs --type, --data <file> (or --example), --forward-to and --secret.');
    }
    const data = values.data ? (JSON.parse(readFileSync(values.data, 'utf8')) as unknown) : await catalogueExample(baseUrl, values.type);
    const body = JSON.stringify({ id: randomUUID(), type: values.type, version: 1, created: new Date().toISOString(), data });
    await forward(body, { forwardTo: values['forward-to'], secret: values.secret }, []);
    return 0;
  }
  const apiKey = values['api-key'] ?? process.env.QPS_API_KEY;
  if (!apiKey) throw new UsageError('Give a Test API key: QPS_API_KEY or --api-key.');
  if (apiKey.startsWith('sk_live_')) {
    console.error('Refused: this is a Live key. qps works with Test keys only, so nothing it does can reach Live. Use a Test key (sk_test_…).');
    return 2;
  }
  if (command === 'logs tail') return tailLogs(baseUrl, apiKey);
  if (command === 'resend') {
    if (!positionals[1] || !values['forward-to'] || !values.secret) throw new UsageError('resend needs an event id, --forward-to and --secret.');
    const { event } = await createClient({ baseUrl, apiKey }).getEvent({ path: { id: positionals[1] } });
    await forward(JSON.stringify(event), { forwardTo: values['forward-to'], secret: values.secret }, []);
    return 0;
  }
  if (command === 'trigger') {
    if (!positionals[1]) throw new UsageError('trigger needs an event type.');
    return trigger(createClient({ baseUrl, apiKey }), positionals[1], {
      businessId: values.business ?? process.env.QPS_BUSINESS_ID,
      bookId: values.book ?? process.env.QPS_BOOK_ID,
      endpointId: values.endpoint,
    });
  }
  const forwardTo = values['forward-to'];
  if (!forwardTo) throw new UsageError('listen needs --forward-to <url>.');
  const secret = values.secret ?? `whsec_${randomBytes(24).toString('base64url')}`;
  if (!values.secret) console.log(`Signing forwarded events with ${secret} (shown once: give it to your app as its webhook secret).`);
  await listen({ baseUrl, apiKey, forwardTo, secret, compressed: values.compressed, after: values.after ?? null });
  return 0;
}

/** The catalogue's example of an event type (GET /v1/event-types): its data. */
async function catalogueExample(baseUrl: string, type: string): Promise<unknown> {
  const { eventTypes } = await createClient({ baseUrl }).listEventTypes();
  const entry = eventTypes.find((candidate) => candidate.type === type);
  if (!entry) throw new UsageError(`"${type}" is not an event type; they are: ${eventTypes.map((t) => t.type).join(', ')}.`);
  return entry.example.data;
}

/** Caused by an ordinary call: quoting. */
const QUOTE_TYPES = ['quote_intent.succeeded', 'quote_intent.requires_input', 'quote_intent.failed', 'account_quote.created'];
/** Made to happen by the service on request (POST /v1/event-triggers). */
const SERVICE_TRIGGERED = ['api_key.created', 'api_key.rotated', 'api_key.revoked', 'book_version.published', 'webhook.test'] as const;
type ServiceTriggered = (typeof SERVICE_TRIGGERED)[number];

/**
 * Makes the service emit a real Test event. Quotes are made as an integration makes them: a
 * quote priced, left waiting for answers or failed (an offering the book does not have), or a
 * quote stored on the account surface, built from the account's own quote spec (its first
 * service, each selection's first option that needs no visit). Key, book and test events the
 * service makes itself (POST /v1/event-triggers); every event it emitted is listed.
 */
async function trigger(client: ReturnType<typeof createClient>, type: string, scope: { businessId?: string; bookId?: string; endpointId?: string }): Promise<number> {
  if ((SERVICE_TRIGGERED as readonly string[]).includes(type)) {
    if (type === 'book_version.published' && !scope.bookId) throw new UsageError(`${type} needs the book to publish again: --book (or QPS_BOOK_ID).`);
    if (type === 'webhook.test' && !scope.endpointId) throw new UsageError(`${type} needs the endpoint to send to: --endpoint <id>.`);
    const { events } = await client.triggerEvent({ body: { type: type as ServiceTriggered, bookId: scope.bookId, endpointId: scope.endpointId } });
    console.log(`Triggered ${type}: ${events.length} event${events.length === 1 ? '' : 's'}.`);
    for (const event of events) console.log(`  ${event.id}  ${event.type}`);
    return 0;
  }
  if (!QUOTE_TYPES.includes(type)) {
    console.error(
      `${type} cannot be triggered with a Test key: it happens in Live, or needs a person's decision (members, branding, reviews, a customer's acceptance). ` +
        `Send its catalogue example to your app instead: qps send --type ${type} --example --forward-to <url> --secret <whsec_…>. ` +
        `Triggerable: ${[...QUOTE_TYPES, ...SERVICE_TRIGGERED].join(', ')}.`,
    );
    return 2;
  }
  const account = await client.getCurrentAccount();
  const spec = await client.getQuoteSpec({ path: { id: account.id } });
  const service = spec.services[0];
  if (!service) throw new Error('The account’s book has no service to quote.');
  const selections = Object.fromEntries(service.selections.map((s) => [s.selection, (s.options.find((o) => !o.requires_inspection) ?? s.options[0]).value]));
  if (type === 'account_quote.created') {
    const produced = await client.createAccountQuote({ path: { id: account.id }, body: { services: [{ service: service.service, selections }], context: {} } });
    console.log(`Triggered ${type}: account quote ${produced.quote_id} (${produced.state}).`);
    return 0;
  }
  if (!scope.businessId || !scope.bookId) throw new UsageError(`${type} needs the business and book to quote: --business and --book (or QPS_BUSINESS_ID, QPS_BOOK_ID).`);
  const quote = await client.createQuote({
    body: {
      businessId: scope.businessId,
      bookId: scope.bookId,
      offeringId: type === 'quote_intent.failed' ? 'qps_trigger_no_such_offering' : service.service,
      factors: type === 'quote_intent.requires_input' ? {} : selections,
    },
  });
  const made = `quote_intent.${quote.quoteIntent.status}`;
  console.log(`Triggered ${made}: quote ${quote.quoteIntent.id}.`);
  if (made !== type) console.error(`(asked for ${type}: the book answered ${quote.quoteIntent.status} for these answers)`);
  return made === type ? 0 : 1;
}

/** Prints the requests of the key's environment as they are made (the account surface's request log, every 2 s). */
async function tailLogs(baseUrl: string, apiKey: string): Promise<number> {
  const client = createClient({ baseUrl, apiKey });
  const account = await client.getCurrentAccount();
  const seen = new Set<string>();
  const page = () => client.listAccountRequestLogs({ path: { id: account.id }, query: { limit: 50 } });
  // What was logged before: only what comes after it is shown (said once it is known).
  for (const row of (await page()).data) seen.add(row.request_id);
  console.log(`Following the requests of ${account.name} (${account.environment}); Ctrl-C to stop.`);
  for (;;) {
    await sleep(2000);
    const fresh = (await page()).data.filter((row) => !seen.has(row.request_id)).reverse();
    for (const row of fresh) {
      seen.add(row.request_id);
      console.log(`${row.created.slice(11, 19)}  ${row.status}  ${row.method} ${row.path}  ${row.latency_ms} ms${row.error_code ? `  ${row.error_code}` : ''}  ${row.request_id}`);
    }
  }
}

/** Holds the stream open (reconnecting after the last event seen) and forwards every event. */
async function listen(options: { baseUrl: string; apiKey: string; forwardTo: string; secret: string; compressed: boolean; after: string | null }) {
  let lastId = options.after;
  let schedule: number[] | null = null;
  for (let failures = 0; ; ) {
    let response: Response;
    try {
      response = await fetch(`${options.baseUrl}/v1/event-stream`, {
        headers: { authorization: `Bearer ${options.apiKey}`, accept: 'text/event-stream', ...(lastId ? { 'last-event-id': lastId } : {}) },
      });
    } catch (error) {
      failures++;
      console.error(`${time()}  cannot reach ${options.baseUrl} (${(error as Error).message}); trying again in ${Math.min(30, 2 ** failures)} s`);
      await sleep(Math.min(30, 2 ** failures) * 1000);
      continue;
    }
    if (!response.ok || !response.body) {
      const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
      const why = `The service refused the stream (${response.status}): ${body?.error?.message ?? response.statusText}`;
      // Too many streams open (one of ours may not be freed yet), a server full of them, or a
      // request the server timed out: wait as told, then try again.
      if (![408, 429, 503].includes(response.status)) throw new Error(why);
      const seconds = Math.max(1, Number(response.headers.get('retry-after')) || 5);
      console.error(`${time()}  ${why}; trying again in ${seconds} s`);
      await sleep(seconds * 1000);
      continue;
    }
    failures = 0;
    for await (const message of serverSentEvents(response.body)) {
      if (message.event === 'ready') {
        const ready = JSON.parse(message.data) as Ready;
        // Where the stream starts: a reconnection before any event resumes there too.
        lastId ??= ready.after;
        schedule = options.compressed ? ready.retrySchedule.compressedMs : ready.retrySchedule.standardMs;
        console.log(
          `${time()}  Ready: forwarding Test events to ${options.forwardTo}; a failed attempt is retried after ${schedule.map(inWords).join(', ')}` +
            (options.compressed ? ' (compressed: the service retries after 30 s, 5 min, 30 min and 2 h).' : '.'),
        );
      } else if (message.event === 'event') {
        if (message.id) lastId = message.id;
        // The service sends `ready` (with its schedule) before any event.
        if (!schedule) throw new Error('The stream sent an event before saying it was ready.');
        void forward(message.data, options, schedule);
      }
    }
    console.error(`${time()}  the stream ended; reconnecting after event ${lastId ?? '(none yet)'}`);
    await sleep(1000);
  }
}

/** Sends one event to the local URL, signed, and retries it on the schedule until it is acknowledged or given up. */
async function forward(body: string, options: { forwardTo: string; secret: string }, schedule: number[]) {
  const event = JSON.parse(body) as Envelope;
  for (let attempt = 1; attempt <= schedule.length + 1; attempt++) {
    const started = performance.now();
    let outcome: string;
    let acknowledged = false;
    try {
      const response = await fetch(options.forwardTo, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'qps-listen',
          'Service-Event-Id': event.id,
          'Service-Attempt': String(attempt),
          'Service-Signature': signWebhook(body, options.secret),
        },
        body,
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      await response.arrayBuffer();
      acknowledged = response.ok;
      outcome = String(response.status);
    } catch (error) {
      outcome = (error as Error).name === 'TimeoutError' ? `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s` : `failed: ${(error as Error).message}`;
    }
    const line = `${time()}  ${event.type}  ${event.id}  → ${outcome} (${Math.round(performance.now() - started)} ms, attempt ${attempt})`;
    if (acknowledged) return void console.log(line);
    if (attempt > schedule.length) return void console.log(`${line}; given up after ${attempt} attempts`);
    console.log(`${line}; retrying in ${inWords(schedule[attempt - 1])}`);
    await sleep(schedule[attempt - 1]);
  }
}

/** Server-sent events from a response body: `event`, `id` and `data` of each message (comments skipped). */
async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; id: string | null; data: string }> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      let id: string | null = null;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'id') id = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length > 0) yield { event, id, data: data.join('\n') };
    }
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n${USAGE}`);
      process.exit(2);
    }
    console.error(`qps: ${(error as Error).message}`);
    process.exit(1);
  },
);
