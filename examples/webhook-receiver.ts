// A webhook receiver an app might run, verifying each delivery with the SDK:
// `QPS_WEBHOOK_SECRET=whsec_… npx tsx examples/webhook-receiver.ts` listens on :4000 (PORT).
import http from 'node:http';
import { webhooks, WebhookVerificationError } from '../sdk/src/index';

const secret = process.env.QPS_WEBHOOK_SECRET;
if (!secret) throw new Error('Set QPS_WEBHOOK_SECRET to the secret the endpoint (or qps listen) signs with.');

http
  .createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        // The raw body, exactly as received: the signature covers these bytes.
        const event = webhooks.verify(Buffer.concat(chunks), request.headers as Record<string, string>, secret);
        console.log(`verified ${event.type} ${event.id}`);
        response.writeHead(204).end();
      } catch (error) {
        console.log(`refused: ${error instanceof WebhookVerificationError ? error.reason : String(error)}`);
        response.writeHead(400).end();
      }
    });
  })
  .listen(Number(process.env.PORT ?? 4000), () => console.log(`receiving on http://localhost:${process.env.PORT ?? 4000}/webhooks`));
