/**
 * What waits for a business (leads, prices about to run out) is counted up to this many: a
 * person acts on "1,000+" as on 1,000,003, and an exact count of a busy business's quotes cost
 * the overview 71 ms at 1M quotes (docs/performance.md); a capped one reads at most this many
 * index entries. The API says so in each field's description; the portal shows "1,000+".
 */
export const PIPELINE_COUNT_CAP = 1000;

/** A pipeline count as a person reads it: "1,000+" at the cap. */
export function pipelineCountText(count: number): string {
  return count >= PIPELINE_COUNT_CAP ? `${PIPELINE_COUNT_CAP.toLocaleString('en-US')}+` : count.toLocaleString('en-US');
}
