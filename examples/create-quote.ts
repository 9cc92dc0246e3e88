// A Test quote made with the SDK, its receipt verified offline:
// `QPS_API_KEY=sk_test_… npx tsx examples/create-quote.ts` (the demo's business and book by default).
import { readFileSync } from 'node:fs';
import { createClient, receipts } from '../sdk/src/index';

const demo = JSON.parse(readFileSync('.data/demo.json', 'utf8')) as { businessId: string; bookId: string };
const qps = createClient({ baseUrl: process.env.QPS_BASE_URL ?? 'http://localhost:3000', apiKey: process.env.QPS_API_KEY });
const quote = await qps.createQuote({
  body: {
    businessId: process.env.QPS_BUSINESS_ID ?? demo.businessId,
    bookId: process.env.QPS_BOOK_ID ?? demo.bookId,
    offeringId: 'window_cleaning',
    factors: { home_size: 'medium', storeys: '2', frequency: 'monthly', access: 'difficult' },
  },
});
console.log(`quote ${quote.quoteIntent.id}: ${quote.quoteIntent.status}, total ${quote.quoteReceipt.computation?.totalMinor ?? '–'} (minor units)`);
console.log(`receipt signature: ${(await receipts.verify(quote.quoteReceipt, qps.receiptKeys)).status}`);
