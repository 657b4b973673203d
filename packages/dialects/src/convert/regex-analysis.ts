/**
 * A matcher regex of another agent, analysed without ever running it through a backtracking engine:
 * a small parser for the regex syntax hook matchers use, a Thompson NFA simulated in
 * O(states × length) for each known tool name, and the finite set of names an alternative spells
 * out, when it is finite. A ReDoS pattern (`^(.*.*.*.*.*.*.*.*.*.*)*!$`) costs microseconds here.
 */

/** A parsed regex node. */
export type RegexNode = (
  | { kind: 'empty' }
  | { kind: 'char'; test: (code: number) => boolean; literal?: string }
  | { kind: 'concat'; parts: RegexNode[] }
  | { kind: 'alt'; options: RegexNode[] }
  | { kind: 'repeat'; node: RegexNode; min: number; max: number } // max = Infinity: unbounded
  | { kind: 'assert'; at: 'start' | 'end' }
) & {
  /** The pattern text of a top-level alternative (for messages). */
  source?: string;
};

/** Why a regex cannot be analysed (unsupported syntax, invalid, or too large). */
export class RegexAnalysisError extends Error {}

const MAX_PATTERN_LENGTH = 2000;
const MAX_NFA_STATES = 20_000;
const MAX_FINITE_STRINGS = 64;
const MAX_REPEAT = 100;

/** Parses `pattern` (JavaScript / Rust regex syntax, the subset hook matchers use). */
export function parseRegex(pattern: string): RegexNode {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new RegexAnalysisError(`longer than ${MAX_PATTERN_LENGTH} characters`);
  }
  let position = 0;
  const peek = () => pattern[position];
  const fail = (what: string): never => {
    throw new RegexAnalysisError(`${what} at offset ${position}`);
  };

  function parseAlternation(depth: number): RegexNode {
    if (depth > 50) fail('groups nested too deep');
    const options: RegexNode[] = [parseSequence(depth)];
    while (peek() === '|') {
      position += 1;
      options.push(parseSequence(depth));
    }
    return options.length === 1 ? (options[0] as RegexNode) : { kind: 'alt', options };
  }

  function parseSequence(depth: number): RegexNode {
    const start = position;
    const parts: RegexNode[] = [];
    while (position < pattern.length && peek() !== '|' && peek() !== ')') {
      const atom = parseAtom(depth);
      parts.push(parseQuantifier(atom));
    }
    const source = pattern.slice(start, position);
    if (parts.length === 0) return { kind: 'empty', source };
    return parts.length === 1
      ? { ...(parts[0] as RegexNode), source }
      : { kind: 'concat', parts, source };
  }

  function parseQuantifier(atom: RegexNode): RegexNode {
    let node = atom;
    for (;;) {
      const next = peek();
      let min: number;
      let max: number;
      if (next === '*') [min, max] = [0, Number.POSITIVE_INFINITY];
      else if (next === '+') [min, max] = [1, Number.POSITIVE_INFINITY];
      else if (next === '?') [min, max] = [0, 1];
      else if (next === '{') {
        const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(position));
        if (match === null) return node; // a literal `{`, as JavaScript reads it
        min = Number(match[1]);
        max =
          match[2] === undefined
            ? min
            : match[3] === ''
              ? Number.POSITIVE_INFINITY
              : Number(match[3]);
        if (min > MAX_REPEAT || (Number.isFinite(max) && max > MAX_REPEAT))
          fail('a repeat count over 100');
        if (max < min) fail('a repeat range out of order');
        position += match[0].length - 1;
      } else return node;
      if (node.kind === 'assert') fail('a quantifier after an anchor');
      position += 1;
      if (peek() === '?') position += 1; // lazy: the same set of matches
      node = { kind: 'repeat', node, min, max };
    }
  }

  function parseAtom(depth: number): RegexNode {
    const char = peek() as string;
    position += 1;
    switch (char) {
      case '^':
        return { kind: 'assert', at: 'start' };
      case '$':
        return { kind: 'assert', at: 'end' };
      case '.':
        return { kind: 'char', test: (code) => code !== 10 && code !== 13 };
      case '(': {
        if (peek() === '?') {
          const rest = pattern.slice(position);
          if (rest.startsWith('?:')) position += 2;
          else if (/^\?P?<[A-Za-z_][A-Za-z0-9_]*>/.test(rest)) {
            position += rest.indexOf('>') + 1;
          } else fail('lookaround or inline flags');
        }
        const inner = parseAlternation(depth + 1);
        if (peek() !== ')') fail('an unclosed group');
        position += 1;
        return inner;
      }
      case ')':
        return fail('an unmatched )');
      case '[':
        return parseClass();
      case '\\':
        return parseEscape(false) as RegexNode;
      case '*':
      case '+':
      case '?':
        return fail('a quantifier with nothing to repeat');
      default:
        return literal(char);
    }
  }

  function parseEscape(
    inClass: boolean,
  ): RegexNode | { kind: 'char'; test: (code: number) => boolean; literal?: string } {
    const char = peek();
    if (char === undefined) return fail('a trailing backslash');
    position += 1;
    switch (char) {
      case 'd':
        return { kind: 'char', test: isDigit };
      case 'D':
        return { kind: 'char', test: (code) => !isDigit(code) };
      case 'w':
        return { kind: 'char', test: isWord };
      case 'W':
        return { kind: 'char', test: (code) => !isWord(code) };
      case 's':
        return { kind: 'char', test: isSpace };
      case 'S':
        return { kind: 'char', test: (code) => !isSpace(code) };
      case 'n':
        return literal('\n');
      case 't':
        return literal('\t');
      case 'b':
      case 'B':
        if (!inClass) return fail('a word-boundary assertion');
        return literal('\b');
      default:
        if (/[0-9]/.test(char)) return fail('a back-reference');
        if (/[A-Za-z]/.test(char)) return fail(`the escape \\${char}`);
        return literal(char);
    }
  }

  function parseClass(): RegexNode {
    let negated = false;
    if (peek() === '^') {
      negated = true;
      position += 1;
    }
    const tests: ((code: number) => boolean)[] = [];
    let first = true;
    while (position < pattern.length && (peek() !== ']' || first)) {
      first = false;
      let low: number;
      if (peek() === '\\') {
        position += 1;
        const escaped = parseEscape(true) as { test: (code: number) => boolean; literal?: string };
        if (escaped.literal === undefined) {
          tests.push(escaped.test);
          continue;
        }
        low = escaped.literal.charCodeAt(0);
      } else {
        if (pattern.startsWith('[:', position)) fail('a POSIX class');
        low = pattern.charCodeAt(position);
        position += 1;
      }
      if (peek() === '-' && pattern[position + 1] !== ']' && position + 1 < pattern.length) {
        position += 1;
        let high: number;
        if (peek() === '\\') {
          position += 1;
          const escaped = parseEscape(true) as { literal?: string };
          if (escaped.literal === undefined) fail('a class escape as a range end');
          high = (escaped.literal as string).charCodeAt(0);
        } else {
          high = pattern.charCodeAt(position);
          position += 1;
        }
        if (high < low) fail('a class range out of order');
        tests.push((code) => code >= low && code <= high);
      } else {
        const only = low;
        tests.push((code) => code === only);
      }
    }
    if (peek() !== ']') fail('an unclosed [');
    position += 1;
    const inClass = (code: number) => tests.some((test) => test(code));
    return { kind: 'char', test: negated ? (code) => !inClass(code) : inClass };
  }

  const tree = parseAlternation(0);
  if (position < pattern.length) fail('an unmatched )');
  return tree;
}

function literal(char: string): { kind: 'char'; test: (code: number) => boolean; literal: string } {
  const code = char.charCodeAt(0);
  return { kind: 'char', test: (other) => other === code, literal: char };
}

const isDigit = (code: number) => code >= 48 && code <= 57;
const isWord = (code: number) =>
  isDigit(code) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
const isSpace = (code: number) => code === 32 || (code >= 9 && code <= 13);

// ---------------------------------------------------------------- NFA

type State =
  | { type: 'char'; test: (code: number) => boolean; next: number }
  | { type: 'split'; next: number[] }
  | { type: 'assert'; at: 'start' | 'end'; next: number }
  | { type: 'match' };

/** A compiled regex: `test(name)` has RegExp.prototype.test's (unanchored) meaning, in linear time. */
export interface CompiledRegex {
  test(text: string): boolean;
}

/** Compiles a parsed regex to a Thompson NFA. Throws {@link RegexAnalysisError} when too large. */
export function compileRegex(tree: RegexNode): CompiledRegex {
  const states: State[] = [];
  const add = (state: State): number => {
    if (states.length >= MAX_NFA_STATES) throw new RegexAnalysisError('too large to analyse');
    states.push(state);
    return states.length - 1;
  };
  // Builds `node` so that it continues at `next`; returns its entry state.
  const build = (node: RegexNode, next: number): number => {
    switch (node.kind) {
      case 'empty':
        return next;
      case 'char':
        return add({ type: 'char', test: node.test, next });
      case 'assert':
        return add({ type: 'assert', at: node.at, next });
      case 'concat': {
        let entry = next;
        for (let index = node.parts.length - 1; index >= 0; index -= 1) {
          entry = build(node.parts[index] as RegexNode, entry);
        }
        return entry;
      }
      case 'alt':
        return add({ type: 'split', next: node.options.map((option) => build(option, next)) });
      case 'repeat': {
        let entry = next;
        if (node.max === Number.POSITIVE_INFINITY) {
          const loop = add({ type: 'split', next: [] });
          const body = build(node.node, loop);
          (states[loop] as { next: number[] }).next = [body, next];
          entry = loop;
        } else {
          for (let count = node.max; count > node.min; count -= 1) {
            const optional = add({ type: 'split', next: [] });
            (states[optional] as { next: number[] }).next = [build(node.node, entry), next];
            entry = optional;
          }
        }
        for (let count = 0; count < node.min; count += 1) entry = build(node.node, entry);
        return entry;
      }
    }
  };
  const accept = add({ type: 'match' });
  const start = build(tree, accept);
  return {
    test(text: string): boolean {
      let current = new Set<number>();
      const closure = (set: Set<number>, from: number, at: number) => {
        const stack = [from];
        while (stack.length > 0) {
          const index = stack.pop() as number;
          if (set.has(index)) continue;
          set.add(index);
          const state = states[index] as State;
          if (state.type === 'split') stack.push(...state.next);
          else if (state.type === 'assert') {
            if (state.at === 'start' ? at === 0 : at === text.length) stack.push(state.next);
          }
        }
      };
      for (let at = 0; at <= text.length; at += 1) {
        closure(current, start, at); // unanchored: a match may begin anywhere
        for (const index of current) if ((states[index] as State).type === 'match') return true;
        if (at === text.length) break;
        const code = text.charCodeAt(at);
        const next = new Set<number>();
        for (const index of current) {
          const state = states[index] as State;
          if (state.type === 'char' && state.test(code)) closure(next, state.next, at + 1);
        }
        current = next;
      }
      return false;
    },
  };
}

/**
 * The strings `node` spells out when its language is finite and small (anchors dropped), else
 * undefined: `(Edit|Write)` → ["Edit", "Write"], `mcp__s__(a|b)` → ["mcp__s__a", "mcp__s__b"].
 */
export function finiteStrings(node: RegexNode): string[] | undefined {
  switch (node.kind) {
    case 'empty':
    case 'assert':
      return [''];
    case 'char':
      return node.literal === undefined ? undefined : [node.literal];
    case 'alt': {
      const all = new Set<string>();
      for (const option of node.options) {
        const strings = finiteStrings(option);
        if (strings === undefined) return undefined;
        for (const string of strings) all.add(string);
        if (all.size > MAX_FINITE_STRINGS) return undefined;
      }
      return [...all];
    }
    case 'concat': {
      let product = [''];
      for (const part of node.parts) {
        const strings = finiteStrings(part);
        if (strings === undefined) return undefined;
        product = product.flatMap((head) => strings.map((tail) => head + tail));
        if (product.length > MAX_FINITE_STRINGS) return undefined;
      }
      return [...new Set(product)];
    }
    case 'repeat': {
      if (!Number.isFinite(node.max)) return undefined;
      const strings = finiteStrings(node.node);
      if (strings === undefined) return undefined;
      const all = new Set<string>();
      let layer = [''];
      for (let count = 0; count <= node.max; count += 1) {
        if (count >= node.min) for (const string of layer) all.add(string);
        layer = layer.flatMap((head) => strings.map((tail) => head + tail));
        if (layer.length > MAX_FINITE_STRINGS || all.size > MAX_FINITE_STRINGS) return undefined;
      }
      return [...all];
    }
  }
}

/** The top-level alternatives of a parsed regex (`A|B|(C)` → A, B, C when the whole is a group). */
export function alternativesOf(node: RegexNode): RegexNode[] {
  return node.kind === 'alt' ? node.options : [node];
}

/** The literal characters an alternative starts with (after a leading `^`), and what follows. */
export function literalPrefix(node: RegexNode): { prefix: string; rest: RegexNode[] } {
  const parts = node.kind === 'concat' ? node.parts : [node];
  let index = 0;
  if (parts[0]?.kind === 'assert' && parts[0].at === 'start') index = 1;
  let prefix = '';
  while (index < parts.length) {
    const part = parts[index] as RegexNode;
    if (part.kind !== 'char' || part.literal === undefined) break;
    prefix += part.literal;
    index += 1;
  }
  return { prefix, rest: parts.slice(index) };
}

/** True when `rest` is `.*` or `.+` (any tail), with an optional `$`. */
export function isAnyTail(rest: readonly RegexNode[]): boolean {
  const parts = rest.at(-1)?.kind === 'assert' ? rest.slice(0, -1) : rest;
  if (parts.length !== 1) return false;
  const only = parts[0] as RegexNode;
  return (
    only.kind === 'repeat' &&
    !Number.isFinite(only.max) &&
    only.min <= 1 &&
    only.node.kind === 'char' &&
    only.node.literal === undefined &&
    only.node.test(97) &&
    only.node.test(95) &&
    only.node.test(48)
  );
}
