// Without zod: the portal's publish dialog shows the phrase too (test/unit/layering.test.ts).

/** What a member types to publish past the safeguard. */
export function confirmationPhrase(versionNumber: number): string {
  return `publish v${versionNumber}`;
}
