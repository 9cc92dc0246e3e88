/** A day of the figures (`2026-11-27`) as a person reads it: "Nov 27". */
export const dayLabel = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
