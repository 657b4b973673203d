/**
 * The deepest nesting of arrays and objects accepted where JSON enters the agent (hook stdout,
 * model tool input). `{}` and `[]` are depth 1, `{"a":[1]}` depth 2. Far deeper input would overflow
 * the stack when serialised or walked; no honest hook or model output comes near it.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Walks the brackets of JSON-ish text, skipping those inside strings, and calls `visit` with each
 * bracket's index, whether it opens, and the depth inside it (an opener) or after it (a closer).
 * Unbalanced closers are ignored. With `topLevelStrings: false` a quote outside any bracket does not
 * start a string (stray quotes in log text around JSON). `visit` returns `false` to stop.
 * @internal
 */
export function scanBrackets(
  text: string,
  topLevelStrings: boolean,
  visit: (index: number, opening: boolean, depth: number) => boolean | undefined,
): void {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c /* \ */) index++;
      else if (code === 0x22 /* " */) inString = false;
      continue;
    }
    if (code === 0x22) inString = topLevelStrings || depth > 0;
    else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      depth++;
      if (visit(index, true, depth) === false) return;
    } else if ((code === 0x7d /* } */ || code === 0x5d) /* ] */ && depth > 0) {
      depth--;
      if (visit(index, false, depth) === false) return;
    }
  }
}

/**
 * The nesting depth of the arrays and objects in JSON text, scanned without parsing (brackets inside
 * strings do not count), stopping as soon as it passes `limit`. Safe on any input: it never recurses,
 * and text that is not JSON just gets some number.
 * @returns the depth, or `limit + 1` when the text goes deeper than `limit`.
 */
export function jsonTextDepth(text: string, limit: number = MAX_JSON_DEPTH): number {
  let deepest = 0;
  scanBrackets(text, true, (_index, opening, depth) => {
    if (!opening || depth <= deepest) return true;
    deepest = Math.min(depth, limit + 1);
    return depth <= limit;
  });
  return deepest;
}

/**
 * The nesting depth of the arrays and objects in a value (a scalar is 0), walked without recursion,
 * stopping as soon as it passes `limit`. An object met twice (shared, or a cycle) is walked once.
 * @returns the depth, or `limit + 1` when the value goes deeper than `limit`.
 */
export function jsonValueDepth(value: unknown, limit: number = MAX_JSON_DEPTH): number {
  let deepest = 0;
  const seen = new Set<object>();
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    const here = depth + 1;
    if (here > deepest) {
      deepest = here;
      if (deepest > limit) return limit + 1;
    }
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) stack.push({ value: child, depth: here });
  }
  return deepest;
}
