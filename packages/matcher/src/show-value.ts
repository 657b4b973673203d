const MAX_SHOWN_CHARACTERS = 80;

/**
 * A value as JSON for a message, cut to a readable length. Never throws: a value nested too deeply
 * for `JSON.stringify` (a hostile hooks.json) is described instead of crashing the loader.
 */
export function showValue(value: unknown): string {
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
