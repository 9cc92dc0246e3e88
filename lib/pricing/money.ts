/**
 * The one rounding rule of the service: a percentage of an amount is rounded to the nearest
 * minor unit, halves away from zero. Exact for |amount| <= 10^12 and |basisPoints| <= 10^5,
 * where a plain `amount * basisPoints` would exceed 2^53.
 */
export function basisPointsOf(amountMinor: number, basisPoints: number): number {
  const sign = Math.sign(amountMinor) * Math.sign(basisPoints);
  const amount = Math.abs(amountMinor);
  const bp = Math.abs(basisPoints);
  const high = Math.floor(amount / 10_000);
  const low = amount - high * 10_000;
  const lowProduct = low * bp;
  const whole = high * bp + Math.floor(lowProduct / 10_000);
  const remainder = lowProduct % 10_000;
  const rounded = remainder * 2 >= 10_000 ? whole + 1 : whole;
  return sign < 0 && rounded !== 0 ? -rounded : rounded;
}
