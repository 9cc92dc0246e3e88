import pg from 'pg';

/** A single pg connection to `url` for the length of `fn` (tests and their tooling: admin statements, probes). */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
