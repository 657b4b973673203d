/** How many characters of a user's value a message shows before it cuts it with `…`. */
export const MAX_SHOWN_CHARACTERS = 80;

/**
 * A user's value as a message shows it (matcher options, hooks.json and config.toml values): JSON
 * (strings quoted), `nothing` for a missing value, `date <ISO>` for a TOML date, cut to
 * {@link MAX_SHOWN_CHARACTERS} with `…`. Never throws: a value nested too deeply for
 * `JSON.stringify` (a hostile hooks.json) is described instead of crashing the loader.
 */
export function showValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? 'an invalid date' : `date ${value.toISOString()}`;
  }
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Array.isArray(value)
      ? '[…] (nested too deeply to show)'
      : '{…} (nested too deeply to show)';
  }
  return text.length > MAX_SHOWN_CHARACTERS ? `${text.slice(0, MAX_SHOWN_CHARACTERS - 1)}…` : text;
}
