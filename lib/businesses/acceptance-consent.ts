/**
 * The sentence a customer agrees to when accepting a quote on the hosted page: the business's
 * own (branding), or one naming the business.
 */
export function consentSentence(business: { name: string; displayName: string | null; acceptanceConsent: string | null }): string {
  return business.acceptanceConsent ?? `I agree that ${business.displayName ?? business.name} may contact me about this quote.`;
}
