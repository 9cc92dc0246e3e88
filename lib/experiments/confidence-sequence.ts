/**
 * Anytime-valid boundaries for a running mean (or any asymptotically linear estimate, such as a
 * difference of two arms' means), read as often as one likes.
 *
 * Method: the Gaussian-mixture asymptotic confidence sequence of Waudby-Smith, Arbour, Sinha,
 * Kennedy and Ramdas, "Time-uniform central limit theory and asymptotic confidence sequences"
 * (Annals of Statistics, 2024; arXiv:2103.06476), §2: after t observations
 * with estimate θ̂ₜ and estimated standard deviation σ̂ₜ of one observation's influence,
 *
 *   θ̂ₜ ± σ̂ₜ · √( 2(tρ² + 1) / (t²ρ²) · log(√(tρ² + 1) / α) )
 *
 * covers θ at every t at once with probability ≥ 1 − α (asymptotically). It is Robbins' normal
 * mixture, so on the scale of an estimate with variance V = σ̂²/t it is exactly the mixture SPRT
 * of Johari, Pekelis and Walsh, "Always valid inference" (2017/2022) with mixing variance
 * τ² = σ̂²ρ². ρ sets the time at which the boundary is tightest: Howard, Ramdas, McAuliffe and
 * Sekhon, "Time-uniform, nonparametric, nonasymptotic confidence sequences" (Annals of
 * Statistics, 2021; arXiv:1810.08240), give the choice for a target count t*:
 * ρ² = (−2 log α + log(−2 log α + 1)) / t*.
 *
 * The one-sided boundary (for guardrails) mixes over λ ≥ 0 only, with a half-normal (the
 * one-sided normal mixture of Howard et al. 2021): the mixture martingale is
 * 2/√(1+tρ²) · exp(x²/2) · Φ(x) with x = ρSₜ/√(1+tρ²); the boundary solves it = 1/α.
 *
 * Everything here is in "standard errors": multiply by √V (the estimate's standard error) to get
 * the half-width. Pure arithmetic: no clock, no randomness, no I/O.
 */

/** ρ for which the two-sided boundary is (nearly) narrowest after `targetCount` observations. */
export function rhoForTarget(targetCount: number, alpha: number): number {
  const l = -2 * Math.log(alpha);
  return Math.sqrt((l + Math.log(l + 1)) / Math.max(1, targetCount));
}

/**
 * The two-sided half-width after `count` observations, in standard errors of the estimate (the
 * fixed-sample 95% interval would use 1.96 here; this is about 3 near the target count).
 */
export function twoSidedMultiplier(count: number, alpha: number, rho: number): number {
  const tr2 = Math.max(count, 1) * rho * rho;
  return Math.sqrt((1 + 1 / tr2) * (2 * Math.log(1 / alpha) + Math.log(1 + tr2)));
}

/** The one-sided bound after `count` observations, in standard errors of the estimate. */
export function oneSidedMultiplier(count: number, alpha: number, rho: number): number {
  const tr2 = Math.max(count, 1) * rho * rho;
  // Solve x²/2 + log Φ(x) = log(1/α) + ½ log(1 + tρ²) − log 2; the left side increases in x
  // (its derivative is x + φ(x)/Φ(x) > 0), and is below the right side at x = 0 when α < ½.
  const target = Math.log(1 / alpha) + 0.5 * Math.log(1 + tr2) - Math.log(2);
  const f = (x: number) => (x * x) / 2 + Math.log(normalCdf(x)) - target;
  let lo = 0;
  let hi = Math.sqrt(2 * target) + 2;
  while (f(hi) < 0) hi *= 2;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) < 0) lo = mid;
    else hi = mid;
  }
  return hi * Math.sqrt(1 + 1 / tr2);
}

/**
 * The count (≥ `from`) at which `sdOfOne · multiplier(t) / √t` first falls to `halfWidth`, where
 * `sdOfOne` is the standard deviation of one observation's influence; null beyond `limit`.
 */
export function countForHalfWidth(sdOfOne: number, halfWidth: number, alpha: number, rho: number, from: number, limit = 1e12): number | null {
  const width = (t: number) => (sdOfOne * twoSidedMultiplier(t, alpha, rho)) / Math.sqrt(t);
  let lo = Math.max(1, from);
  if (width(lo) <= halfWidth) return lo;
  if (!(halfWidth > 0) || width(limit) > halfWidth) return null;
  let hi = lo * 2;
  while (width(hi) > halfWidth) {
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (width(mid) > halfWidth) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Φ, the standard normal distribution function. */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** erfc with fractional error below 1.2e-7 everywhere (Numerical Recipes' Chebyshev fit). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}
