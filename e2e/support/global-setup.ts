import { startHarness } from './harness';

// Values put on process.env here and in startHarness (the webhook test CA and keys) are
// inherited by the test workers.
export default async function globalSetup() {
  const harness = await startHarness();
  process.env.APP_URL = harness.appUrl;
  process.env.TEST_DATABASE_URL = harness.databaseUrl;
  process.env.IDP_ISSUER = harness.issuer;
  return () => harness.stop();
}
