/**
 * Milliseconds rounded to 0.1 ms: the digits below that are timer noise, and durations end up in
 * JSON records (`98.8`, not `98.77857399999999`).
 */
export function roundMs(milliseconds: number): number {
  return Math.round(milliseconds * 10) / 10;
}
