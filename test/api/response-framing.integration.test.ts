import net from 'node:net';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createTenant, quoteRequest, type Tenant } from '../../lib/testing/factories';

/**
 * Sends one request over a raw socket and collects what each read returned until the response
 * is complete (its Content-Length of body arrived, or, chunked, the terminating chunk).
 */
async function readsOf(request: string): Promise<string[]> {
  const { hostname, port } = new URL(inject('baseUrl'));
  const socket = net.connect({ host: hostname, port: Number(port) });
  const reads: string[] = [];
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      reads.push(chunk.toString('utf8'));
      const text = reads.join('');
      const [head, ...rest] = text.split('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
      const complete = length !== undefined ? Buffer.byteLength(rest.join('\r\n\r\n')) >= Number(length) : text.endsWith('\r\n0\r\n\r\n');
      if (complete) {
        socket.destroy();
        resolve(reads);
      }
    });
    socket.write(request);
  });
}

describe('response framing', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant();
  });

  // The headers travel with the body: one write and one wake-up of the client per response,
  // not a segment for the headers and another for the body (Next flushes headers on their own).
  it('sends a quote response in one segment, headers and body together', async () => {
    const body = JSON.stringify(quoteRequest(tenant));
    const reads = await readsOf(
      [
        'POST /v1/quotes HTTP/1.1',
        'Host: localhost',
        `Authorization: Bearer ${tenant.keys.test}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        '',
        body,
      ].join('\r\n'),
    );
    expect(reads[0]).toMatch(/^HTTP\/1\.1 201 /);
    expect(reads).toHaveLength(1);
    const [, payload] = reads[0].split('\r\n\r\n');
    expect(payload).toContain('"quoteIntent"');
  });
});
