import { parse, TomlError } from 'smol-toml';
import { formatJsonPath, type IssueText, type JsonPath, type Position } from './issues.js';

/** A parsed TOML document that can say (best effort) where a key is. */
export interface TomlDocument {
  value: Record<string, unknown>;
  /** Position of the key at `jsonPath` (or of its table header); the nearest located ancestor otherwise. */
  locate(jsonPath: JsonPath): Position | undefined;
}

/** A TOML syntax error with its position when the parser gives one. */
export interface TomlSyntaxError {
  position: Position | undefined;
  text: IssueText;
}

/** Parses TOML; returns the syntax error instead of a document when there is one. */
export function parseTomlDocument(text: string): TomlDocument | TomlSyntaxError {
  let value: Record<string, unknown>;
  try {
    value = parse(text) as Record<string, unknown>;
  } catch (error) {
    const firstLine = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    const reason = firstLine.replace(/^Invalid TOML document:\s*/, '') || 'invalid document';
    return {
      position:
        error instanceof TomlError && error.line > 0
          ? { line: error.line, column: error.column }
          : undefined,
      text: { problem: `invalid TOML: ${reason}`, fix: 'see https://toml.io for the syntax' },
    };
  }
  // Positions are only needed for errors: scan the text on first use.
  let keys: Map<string, Position> | undefined;
  return {
    value,
    locate(jsonPath) {
      keys ??= locateTomlKeys(text);
      for (let length = jsonPath.length; length > 0; length--) {
        const position = keys.get(formatJsonPath(jsonPath.slice(0, length)));
        if (position !== undefined) return position;
      }
      return undefined;
    },
  };
}

/** True when {@link parseTomlDocument} returned a syntax error. */
export function isTomlSyntaxError(
  result: TomlDocument | TomlSyntaxError,
): result is TomlSyntaxError {
  return !('value' in result);
}

const BARE_KEY = /^[A-Za-z0-9_-]+/;
const BASIC_KEY = /^"(?:[^"\\]|\\.)*"/;
const LITERAL_KEY = /^'[^']*'/;

/** Reads a dotted key at the start of `text`; returns its segments and the length consumed. */
function readKey(text: string): { segments: string[]; length: number } | undefined {
  const segments: string[] = [];
  let rest = text;
  for (;;) {
    const leading = rest.length - rest.trimStart().length;
    rest = rest.slice(leading);
    const match = BARE_KEY.exec(rest) ?? BASIC_KEY.exec(rest) ?? LITERAL_KEY.exec(rest);
    if (match === null) return undefined;
    const raw = match[0];
    segments.push(
      raw.startsWith('"') ? safeJsonString(raw) : raw.startsWith("'") ? raw.slice(1, -1) : raw,
    );
    rest = rest.slice(raw.length);
    const afterSpace = rest.trimStart();
    if (!afterSpace.startsWith('.')) {
      return { segments, length: text.length - afterSpace.length };
    }
    rest = afterSpace.slice(1);
  }
}

function safeJsonString(raw: string): string {
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.slice(1, -1);
  }
}

/**
 * Maps formatted JSON paths (`tools[0].parameters.filter.type`) to the position of their key or table
 * header. Line-based, best effort: multi-line strings are skipped, keys inside inline tables are not
 * located (their ancestors are).
 */
function locateTomlKeys(text: string): Map<string, Position> {
  const positions = new Map<string, Position>();
  const arrayCounts = new Map<string, number>();
  let table: (string | number)[] = [];
  let openString: string | undefined;
  const lines = text.split('\n');
  const record = (segments: (string | number)[], position: Position) => {
    const key = formatJsonPath(segments);
    if (!positions.has(key)) positions.set(key, position);
  };
  // A header names its tables from the root, but an array-of-tables segment means its last element.
  const resolve = (segments: readonly string[]): (string | number)[] => {
    const resolved: (string | number)[] = [];
    for (const segment of segments) {
      resolved.push(segment);
      const count = arrayCounts.get(formatJsonPath(resolved));
      if (count !== undefined) resolved.push(count - 1);
    }
    return resolved;
  };
  for (const [index, line] of lines.entries()) {
    if (openString !== undefined) {
      if (line.includes(openString)) openString = undefined;
      continue;
    }
    const trimmed = line.trimStart();
    const column = line.length - trimmed.length + 1;
    const position = { line: index + 1, column };
    if (trimmed.startsWith('[')) {
      const isArray = trimmed.startsWith('[[');
      const key = readKey(trimmed.slice(isArray ? 2 : 1));
      if (key === undefined) continue;
      const parent = resolve(key.segments.slice(0, -1));
      const last = key.segments.at(-1) as string;
      table = [...parent, last];
      if (isArray) {
        const arrayKey = formatJsonPath(table);
        const count = (arrayCounts.get(arrayKey) ?? 0) + 1;
        arrayCounts.set(arrayKey, count);
        record(table, position);
        table = [...table, count - 1];
      }
      record(table, position);
      continue;
    }
    const key = readKey(trimmed);
    if (key === undefined || !trimmed.slice(key.length).trimStart().startsWith('=')) continue;
    for (let length = 1; length <= key.segments.length; length++) {
      record([...table, ...key.segments.slice(0, length)], position);
    }
    const valueText = trimmed.slice(key.length).trimStart().slice(1);
    for (const quote of ['"""', "'''"]) {
      const at = valueText.indexOf(quote);
      if (at !== -1 && valueText.indexOf(quote, at + 3) === -1) openString = quote;
    }
  }
  return positions;
}
