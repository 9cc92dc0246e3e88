#!/usr/bin/env node
// The local loop of an integration, in the Test environment only (a Live key is refused):
// - `qps listen --forward-to http://localhost:4000/webhooks`: the environment's events, as they
//   happen, forwarded to a local URL, signed like real deliveries with a secret printed once,
//   each attempt shown with its status and time, failures retried on the service's schedule (or
//   the compressed one, with --compressed); a restart resumes after the last event it forwarded;
// - `qps trigger <event type>`: the service does something real in Test that emits it (a quote,
//   an account-surface quote, a key made, rotated and revoked, a book republished, a test event);
// - `qps send --type … (--data file.json | --example) --forward-to … --secret …`: one signed event
//   with a body of your choosing (or the catalogue's example), to see how the app handles it;
// - `qps resend <event id> --forward-to … --secret …`: an event of the Test environment, again;
// - `qps logs tail`: the key's environment's requests, as they are made.
// Exit codes: 0 done, 1 failed (refused, unreachable, not acknowledged), 2 misused (usage, a Live key).
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { explain } from './cli/explain.js';
import { forward } from './cli/forward.js';
import { listen } from './cli/listen.js';
import { tailLogs } from './cli/logs.js';
import { ListenState } from './cli/state.js';
import { trigger } from './cli/trigger.js';
import { closestCommand, commandOf, usage, UsageError, type CommandName } from './cli/usage.js';
import { createClient } from './index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const OPTIONS = {
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
} as const;

/** What the command line asks for: help, a command, or a misuse (with the command it concerns). */
function readCommand(argv: string[]): { help: true; command: CommandName | null } | { help: false; command: CommandName } {
  // Leniently, so that an option's value is not taken for the command; the strict parse follows.
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS, strict: false });
  const wantsHelp = values.help === true || positionals[0] === 'help';
  const named = positionals[0] === 'help' ? positionals.slice(1) : positionals;
  const command = commandOf(named);
  if (!command && named.length > 0) {
    const guess = closestCommand(named[0] === 'logs' ? named.join(' ') : named[0]);
    throw new UsageError(`Unknown command "${named.join(' ')}".${guess ? ` Did you mean \`qps ${guess}\`?` : ''} \`qps help\` lists the commands.`, null);
  }
  if (wantsHelp) return { help: true, command };
  if (!command) throw new UsageError('Name a command: `qps listen --forward-to http://localhost:4000/webhooks`, for one; `qps help` says more.', null);
  return { help: false, command };
}

async function main(argv: string[]): Promise<number> {
  const asked = readCommand(argv);
  if (asked.help) {
    console.log(usage(asked.command === 'help' ? null : asked.command));
    return 0;
  }
  const { command } = asked;
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    throw new UsageError((error as Error).message, command);
  }
  const { positionals, values } = parsed;
  const baseUrl = (values['base-url'] ?? process.env.QPS_BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
  const apiKey = values['api-key'] ?? process.env.QPS_API_KEY;
  return run(command, positionals, values, baseUrl, apiKey).catch((error: unknown) => {
    if (error instanceof UsageError) throw error;
    console.error(`qps: ${explain(error, { baseUrl, apiKey })}`);
    return 1;
  });
}

type Values = ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true }>>['values'];

async function run(command: CommandName, positionals: string[], values: Values, baseUrl: string, apiKey: string | undefined): Promise<number> {
  if (command === 'send') {
    if (!values.type || (!values.data && !values.example) || !values['forward-to'] || !values.secret) {
      throw new UsageError('send needs --type, --data <file> (or --example), --forward-to and --secret.', 'send');
    }
    const data = values.data ? readJson(values.data) : await catalogueExample(baseUrl, values.type);
    const body = JSON.stringify({ id: randomUUID(), type: values.type, version: 1, created: new Date().toISOString(), data });
    return delivered(await forward(body, { forwardTo: values['forward-to'], secret: values.secret }, []), values['forward-to']);
  }
  if (!apiKey) throw new UsageError('Give a Test API key: QPS_API_KEY or --api-key (.data/demo.json has one on a local start).', command);
  if (apiKey.startsWith('sk_live_')) {
    console.error('Refused: this is a Live key. qps works with Test keys only, so nothing it does can reach Live. Use a Test key (sk_test_…).');
    return 2;
  }
  const client = createClient({ baseUrl, apiKey });
  if (command === 'logs tail') return tailLogs(client, { baseUrl, apiKey });
  if (command === 'resend') {
    if (!positionals[1] || !values['forward-to'] || !values.secret) throw new UsageError('resend needs an event id, --forward-to and --secret.', 'resend');
    const { event } = await client.getEvent({ path: { id: positionals[1] } });
    return delivered(await forward(JSON.stringify(event), { forwardTo: values['forward-to'], secret: values.secret }, []), values['forward-to']);
  }
  if (command === 'trigger') {
    if (!positionals[1]) throw new UsageError('trigger needs an event type.', 'trigger');
    return trigger(client, positionals[1], {
      businessId: values.business ?? process.env.QPS_BUSINESS_ID,
      bookId: values.book ?? process.env.QPS_BOOK_ID,
      endpointId: values.endpoint,
    });
  }
  const forwardTo = values['forward-to'];
  if (!forwardTo) throw new UsageError('listen needs --forward-to <url>.', 'listen');
  if (values.after && !UUID.test(values.after)) throw new UsageError(`--after takes an event id (a UUID, as listen prints it), not "${values.after}".`, 'listen');
  const secret = values.secret ?? `whsec_${randomBytes(24).toString('base64url')}`;
  if (!values.secret) console.log(`Signing forwarded events with ${secret} (shown once: give it to your app as its webhook secret).`);
  const state = new ListenState({ apiKey, forwardTo });
  return listen({ baseUrl, apiKey, forwardTo, secret, compressed: values.compressed, after: values.after ?? null, state });
}

/** 0 when the receiver acknowledged the event, else 1 with a line saying so. */
function delivered(result: { acknowledged: boolean; outcome: string }, forwardTo: string): number {
  if (result.acknowledged) return 0;
  console.error(`qps: ${forwardTo} did not acknowledge the event (${result.outcome}).`);
  return 1;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    throw new Error(`Cannot read --data ${file}: ${(error as Error).message}`);
  }
}

/** The catalogue's example of an event type (GET /v1/event-types): its data. */
async function catalogueExample(baseUrl: string, type: string): Promise<unknown> {
  const { eventTypes } = await createClient({ baseUrl }).listEventTypes();
  const entry = eventTypes.find((candidate) => candidate.type === type);
  if (!entry) throw new UsageError(`"${type}" is not an event type; they are: ${eventTypes.map((t) => t.type).join(', ')}.`, 'send');
  return entry.example.data;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(error.command || error.message.startsWith('Name a command') ? `${error.message}\n\n${usage(error.command)}` : error.message);
      process.exit(2);
    }
    console.error(`qps: ${(error as Error).message}`);
    process.exit(1);
  },
);
