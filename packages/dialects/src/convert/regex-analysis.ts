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
  return new RegexParser(pattern).parse();
}

// A recursive-descent parser: each method reads one production from `position` on.
class RegexParser {
  private readonly pattern: string;
  private position = 0;

  constructor(pattern: string) {
    this.pattern = pattern;
  }

  parse(): RegexNode {
    const tree = this.parseAlternation(0);
    if (this.position < this.pattern.length) this.fail('an unmatched )');
    return tree;
  }

  private peek(): string | undefined {
    return this.pattern[this.position];
  }

  private fail(what: string): never {
    throw new RegexAnalysisError(`${what} at offset ${this.position}`);
  }

  private parseAlternation(depth: number): RegexNode {
    if (depth > 50) this.fail('groups nested too deep');
    const options: RegexNode[] = [this.parseSequence(depth)];
    while (this.peek() === '|') {
      this.position += 1;
      options.push(this.parseSequence(depth));
    }
    return options.length === 1 ? (options[0] as RegexNode) : { kind: 'alt', options };
  }

  private parseSequence(depth: number): RegexNode {
    const start = this.position;
    const parts: RegexNode[] = [];
    while (this.position < this.pattern.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.parseAtom(depth);
      parts.push(this.parseQuantifier(atom));
    }
    const source = this.pattern.slice(start, this.position);
    if (parts.length === 0) return { kind: 'empty', source };
    return parts.length === 1
      ? { ...(parts[0] as RegexNode), source }
      : { kind: 'concat', parts, source };
  }

  private parseQuantifier(atom: RegexNode): RegexNode {
    let node = atom;
    for (;;) {
      const next = this.peek();
      let min: number;
      let max: number;
      if (next === '*') [min, max] = [0, Number.POSITIVE_INFINITY];
      else if (next === '+') [min, max] = [1, Number.POSITIVE_INFINITY];
      else if (next === '?') [min, max] = [0, 1];
      else if (next === '{') {
        const match = /^\{(\d+)(,(\d*))?\}/.exec(this.pattern.slice(this.position));
        if (match === null) return node; // a literal `{`, as JavaScript reads it
        min = Number(match[1]);
        max =
          match[2] === undefined
            ? min
            : match[3] === ''
              ? Number.POSITIVE_INFINITY
              : Number(match[3]);
        if (min > MAX_REPEAT || (Number.isFinite(max) && max > MAX_REPEAT))
          this.fail('a repeat count over 100');
        if (max < min) this.fail('a repeat range out of order');
        this.position += match[0].length - 1;
      } else return node;
      if (node.kind === 'assert') this.fail('a quantifier after an anchor');
      this.position += 1;
      if (this.peek() === '?') this.position += 1; // lazy: the same set of matches
      node = { kind: 'repeat', node, min, max };
    }
  }

  private parseAtom(depth: number): RegexNode {
    const char = this.peek() as string;
    this.position += 1;
    switch (char) {
      case '^':
        return { kind: 'assert', at: 'start' };
      case '$':
        return { kind: 'assert', at: 'end' };
      case '.':
        return { kind: 'char', test: (code) => code !== 10 && code !== 13 };
      case '(': {
        if (this.peek() === '?') {
          const rest = this.pattern.slice(this.position);
          if (rest.startsWith('?:')) this.position += 2;
          else if (/^\?P?<[A-Za-z_][A-Za-z0-9_]*>/.test(rest)) {
            this.position += rest.indexOf('>') + 1;
          } else this.fail('lookaround or inline flags');
        }
        const inner = this.parseAlternation(depth + 1);
        if (this.peek() !== ')') this.fail('an unclosed group');
        this.position += 1;
        return inner;
      }
      case ')':
        return this.fail('an unmatched )');
      case '[':
        return this.parseClass();
      case '\\':
        return this.parseEscape(false) as RegexNode;
      case '*':
      case '+':
      case '?':
        return this.fail('a quantifier with nothing to repeat');
      default:
        return literal(char);
    }
  }

  private parseEscape(
    inClass: boolean,
  ): RegexNode | { kind: 'char'; test: (code: number) => boolean; literal?: string } {
    const char = this.peek();
    if (char === undefined) return this.fail('a trailing backslash');
    this.position += 1;
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
        if (!inClass) return this.fail('a word-boundary assertion');
        return literal('\b');
      default:
        if (/[0-9]/.test(char)) return this.fail('a back-reference');
        if (/[A-Za-z]/.test(char)) return this.fail(`the escape \\${char}`);
        return literal(char);
    }
  }

  private parseClass(): RegexNode {
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.position += 1;
    }
    const tests: ((code: number) => boolean)[] = [];
    let first = true;
    while (this.position < this.pattern.length && (this.peek() !== ']' || first)) {
      first = false;
      let low: number;
      if (this.peek() === '\\') {
        this.position += 1;
        const escaped = this.parseEscape(true) as {
          test: (code: number) => boolean;
          literal?: string;
        };
        if (escaped.literal === undefined) {
          tests.push(escaped.test);
          continue;
        }
        low = escaped.literal.charCodeAt(0);
      } else {
        if (this.pattern.startsWith('[:', this.position)) this.fail('a POSIX class');
        low = this.pattern.charCodeAt(this.position);
        this.position += 1;
      }
      if (
        this.peek() === '-' &&
        this.pattern[this.position + 1] !== ']' &&
        this.position + 1 < this.pattern.length
      ) {
        this.position += 1;
        let high: number;
        if (this.peek() === '\\') {
          this.position += 1;
          const escaped = this.parseEscape(true) as { literal?: string };
          if (escaped.literal === undefined) this.fail('a class escape as a range end');
          high = (escaped.literal as string).charCodeAt(0);
        } else {
          high = this.pattern.charCodeAt(this.position);
          this.position += 1;
        }
        if (high < low) this.fail('a class range out of order');
        tests.push((code) => code >= low && code <= high);
      } else {
        const only = low;
        tests.push((code) => code === only);
      }
    }
    if (this.peek() !== ']') this.fail('an unclosed [');
    this.position += 1;
    const inClass = (code: number) => tests.some((test) => test(code));
    return { kind: 'char', test: negated ? (code) => !inClass(code) : inClass };
  }
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
