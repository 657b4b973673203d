import { PLAIN_NAME_PATTERN } from './name-list.js';

/**
 * Other agents' tool names → ours (e.g. Claude Code's `Bash` → `bash`), used to suggest the
 * exact-match way to write a regex-looking `tool` value and to say which tool an unknown name means.
 * The matcher knows no agent's names: its caller passes them (config passes the Claude Code
 * dialect's, from `@soong-agent/dialects`).
 */
export type ToolAliases = Readonly<Record<string, string>>;

const NO_ALIASES: ToolAliases = Object.freeze({});

const WORD_BOUNDARY = /\\[bB]/g;
const REGEX_DECORATION = /[\^$()\\]/g;

/**
 * Splits a regex-looking value into the plain names it most likely means: splits on `|`, strips
 * anchors, parentheses and backslashes, drops alternatives that are still patterns (`.*`, `mcp__.*`),
 * and dedupes in order. Does not map aliases.
 */
export function splitAlternatives(value: string): string[] {
  const names: string[] = [];
  for (const part of value.split('|')) {
    const name = part.replace(WORD_BOUNDARY, '').replace(REGEX_DECORATION, '').trim();
    if (PLAIN_NAME_PATTERN.test(name) && !names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * The exact tool names a regex-looking matcher means: with Claude Code's aliases, `"Edit|Write"` →
 * `['edit_file', 'write_file']`, `"^Bash$"` → `['bash']`. Names in `aliases` are replaced by ours;
 * other names are kept as written. Returns `[]` when nothing exact is left (`".*"`): then the rule
 * wants every tool, and the fix is to remove its `tool` key.
 */
export function suggestExactTools(value: string, aliases: ToolAliases = NO_ALIASES): string[] {
  const tools: string[] = [];
  for (const name of splitAlternatives(value)) {
    const tool = Object.hasOwn(aliases, name) ? (aliases[name] as string) : name;
    if (!tools.includes(tool)) tools.push(tool);
  }
  return tools;
}

/**
 * The candidate closest to `value` by edit distance (Damerau–Levenshtein, optimal string alignment,
 * case-insensitive), if it is within `max(2, ⌊length/3⌋)` edits; ties go to the earlier candidate.
 * For "did you mean" hints.
 */
export function closestMatch(value: string, candidates: readonly string[]): string | undefined {
  const threshold = Math.max(2, Math.floor(value.length / 3));
  const needle = value.toLowerCase();
  let best: string | undefined;
  let bestDistance = threshold + 1;
  for (const candidate of candidates) {
    if (candidate === value) return candidate;
    const distance = editDistance(needle, candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (beforePrevious[j - 2] as number) + 1);
      }
      current.push(best);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length] as number;
}
