/** The commands, their usage, and what a mistyped one was probably meant to be. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose usage follows the message (the whole usage when none). */
    readonly command: CommandName | null = null,
  ) {
    super(message);
  }
}

export const COMMANDS = {
  listen: `qps listen --forward-to <url> [--compressed] [--secret whsec_…] [--after <event id>]
  Forwards the Test environment's events to a local URL, signed, as they happen. It resumes
  after the last event it forwarded (kept per key and URL in $QPS_STATE_DIR, else
  $XDG_STATE_HOME/qps or ~/.local/state/qps); --after <event id> starts after that event instead.
  --compressed retries a failed attempt after 2, 5, 10 and 20 seconds instead of the service's schedule.`,
  trigger: `qps trigger <event type> [--business <id>] [--book <id>] [--endpoint <id>]
  Makes the service do something real in Test that emits the event.
  quote_intent.*: the business and book to quote (or QPS_BUSINESS_ID, QPS_BOOK_ID; by default the
  account's book and its first connected business); book_version.published: the book (by default the
  account's); webhook.test: the endpoint.`,
  send: `qps send --type <event type> (--data <file.json> | --example) --forward-to <url> --secret whsec_…
  Sends one signed event with a body of your choosing (or the catalogue's example) to a URL.`,
  resend: `qps resend <event id> --forward-to <url> --secret whsec_…
  Sends an event of the Test environment again, as its deliveries send it.`,
  'logs tail': `qps logs tail
  Prints the requests made in the key's environment as they are made (its own polls left out).`,
  help: `qps help [<command>]
  Prints this help, or one command's.`,
} as const;

export type CommandName = keyof typeof COMMANDS;

const ENVIRONMENT = `QPS_API_KEY   a Test API key (listen, resend: events:listen; trigger: events:trigger and quotes:write;
              logs: logs:read), or --api-key
QPS_BASE_URL  the service, default http://localhost:3000 (or --base-url)`;

/** Everything, or one command's usage. */
export function usage(command: CommandName | null = null): string {
  if (command) return `usage: ${COMMANDS[command]}\n\n${ENVIRONMENT}`;
  return `usage: qps <command> [options]   (Test keys only)\n\n${Object.values(COMMANDS).join('\n\n')}\n\n${ENVIRONMENT}`;
}

/** The command named by the positionals (`logs tail` is two words), or null. */
export function commandOf(positionals: string[]): CommandName | null {
  const [first, second] = positionals;
  if (first === 'logs' && second === 'tail') return 'logs tail';
  return first && first in COMMANDS ? (first as CommandName) : null;
}

/** The command a mistyped name most likely meant, when one is close enough (at most 2 edits, or a prefix). */
export function closestCommand(name: string): CommandName | null {
  let best: { command: CommandName; distance: number } | null = null;
  for (const command of Object.keys(COMMANDS) as CommandName[]) {
    const distance = command.startsWith(name) && name.length >= 2 ? 0 : editDistance(name, command);
    if (!best || distance < best.distance) best = { command, distance };
  }
  return best && best.distance <= Math.max(1, Math.min(2, Math.floor(name.length / 3))) ? best.command : null;
}

/** Levenshtein distance. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
