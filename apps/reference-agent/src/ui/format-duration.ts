/**
 * The one way the CLI's screens show a duration (the timeline, `hooks test`): whole milliseconds
 * under a second (`12ms`), seconds with one decimal from there (`1.2s`). A value that rounds to
 * 1000ms is shown in seconds, so `999.6` reads `1.0s`, never `1000ms`.
 */
export function formatDuration(ms: number): string {
  const rounded = Math.round(ms);
  return rounded < 1000 ? `${rounded}ms` : formatSeconds(ms);
}

/**
 * A time that is still running (the live "… running" line): always seconds with one decimal, the
 * same rounding as {@link formatDuration}, so the line does not change unit while it ticks.
 */
export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}
