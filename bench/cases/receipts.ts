// Signed receipts: what signing costs per receipt (canonical JSON, Ed25519), and how fast
// `npm run audit-receipts` checks them (signature + recomputation) over the demo book's quotes.
// In this process, on the bench's fresh database, before the servers start (an idle machine).
import { randomUUID } from 'node:crypto';
import sodium from 'sodium-native';
import { demoBookArtifact, demoExample } from '../../lib/books/demo-book';
import type { Db } from '../../lib/db/client';
import { auditReceipts } from '../../lib/quotes/audit-receipts';
import { createPublicQuote } from '../../lib/quotes/create-public-quote';
import { signDocument, signingInput } from '../../lib/receipts/receipt-signature';
import { currentReceiptSigner } from '../../lib/receipts/signing-keys';
import { prng } from '../../lib/testing/generate-book';
import { testContext } from '../../lib/testing/factories';

export type ReceiptBenchResult = {
  /** µs per receipt of the demo example: its canonical JSON, the Ed25519 signature, both (signDocument). */
  signing: { canonicalUs: number; ed25519Us: number; totalUs: number; jsonStringifyUs: number; receiptBytes: number };
  receipts: number;
  seedSeconds: number;
  /** One full audit per run: wall time, receipts per second, CPU of this process. */
  audits: { wallMs: number; perSecond: number; cpuMs: number; verified: number; failures: number }[];
};

const AUDIT_RUNS = 3;

function microseconds(iterations: number, fn: () => void): number {
  for (let i = 0; i < Math.min(iterations, 500); i++) fn();
  const started = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  return ((performance.now() - started) * 1000) / iterations;
}

/** Demo answers: mostly complete, some with a question unanswered or an unknown option. */
function demoRequest(random: () => number) {
  const offering = demoBookArtifact.offerings[Math.floor(random() * demoBookArtifact.offerings.length)];
  const factors: Record<string, string | null> = {};
  for (const factor of demoBookArtifact.factors) {
    const roll = random();
    if (roll < 0.03) continue;
    factors[factor.id] = roll < 0.05 ? 'no_such_option' : factor.options[Math.floor(random() * factor.options.length)].id;
  }
  return { offeringId: offering.id, factors };
}

export async function runReceiptCases(db: Db, businessId: string, quick: boolean, log: (message: string) => void): Promise<ReceiptBenchResult> {
  const receipts = quick ? 5_000 : 20_000;
  const ctx = () => ({ ...testContext(db), startedAt: performance.now() });
  const random = prng(19);

  const seedStarted = performance.now();
  log(`receipts: creating ${receipts.toLocaleString('en-US')} signed quotes of the demo book (domain code)`);
  let made = 0;
  const example = await createPublicQuote(ctx(), { businessId, ...demoExample });
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (made < receipts - 1) {
        made++;
        await createPublicQuote(ctx(), { businessId, ...demoRequest(random), idempotencyKey: randomUUID() });
      }
    }),
  );
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  const receipt = { ...example.result.quoteReceipt, signature: null };
  const signer = await currentReceiptSigner(db, new Date());
  const iterations = quick ? 2_000 : 10_000;
  const bytes = signingInput(receipt);
  const signing = {
    canonicalUs: microseconds(iterations, () => signingInput(receipt)),
    ed25519Us: microseconds(iterations, () => sodium.crypto_sign_detached(Buffer.alloc(sodium.crypto_sign_BYTES), bytes, signer.secretKey)),
    totalUs: microseconds(iterations, () => signDocument(signer, receipt)),
    jsonStringifyUs: microseconds(iterations, () => JSON.stringify(receipt)),
    receiptBytes: bytes.length,
  };

  const audits: ReceiptBenchResult['audits'] = [];
  for (let run = 1; run <= AUDIT_RUNS; run++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const tally = await auditReceipts({ db }, { since: null, businessId });
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    audits.push({ wallMs, perSecond: (tally.checked / wallMs) * 1000, cpuMs: (used.user + used.system) / 1000, verified: tally.verified, failures: tally.badSignature + tally.differs });
    log(`receipts: audit run ${run}: ${tally.checked} receipts in ${Math.round(wallMs)} ms (${Math.round((tally.checked / wallMs) * 1000)}/s), ${tally.verified} verified`);
  }
  return { signing, receipts, seedSeconds, audits };
}
