import { parse, TomlError } from 'smol-toml';
import { type AST, parseTOML } from 'toml-eslint-parser';
import { formatJsonPath, type IssueText, type JsonPath, type Position } from './issues.js';

/** A parsed TOML document that can say where a key is. */
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

/** Where each key, table header and array element of `text` is, by formatted JSON path. */
function locateTomlKeys(text: string): Map<string, Position> {
  const located = new Map<string, { position: Position; explicit: boolean }>();
  // The first definition wins; a key or header that defines a path beats a header or dotted key
  // that only passes through it (`[tools.parameters.filter]` passes through `parameters`).
  const record = (jsonPath: JsonPath, node: AST.TOMLNode, explicit: boolean) => {
    const key = formatJsonPath(jsonPath);
    const known = located.get(key);
    if (known !== undefined && (known.explicit || !explicit)) return;
    const { line, column } = node.loc.start;
    located.set(key, { position: { line, column: column + 1 }, explicit });
  };
  const visitKeyValue = (prefix: JsonPath, node: AST.TOMLKeyValue) => {
    const keyPath = [...prefix];
    for (const [index, segment] of node.key.keys.entries()) {
      keyPath.push(segment.type === 'TOMLBare' ? segment.name : segment.value);
      record(keyPath, segment, index === node.key.keys.length - 1);
    }
    visitValue(keyPath, node.value);
  };
  const visitValue = (jsonPath: JsonPath, node: AST.TOMLContentNode) => {
    if (node.type === 'TOMLInlineTable') {
      for (const keyValue of node.body) visitKeyValue(jsonPath, keyValue);
    } else if (node.type === 'TOMLArray') {
      for (const [index, element] of node.elements.entries()) {
        record([...jsonPath, index], element, true);
        visitValue([...jsonPath, index], element);
      }
    }
  };
  let program: AST.TOMLProgram;
  try {
    program = parseTOML(text);
  } catch {
    // smol-toml accepted the text; if this parser does not, positions are simply unknown.
    return new Map();
  }
  for (const node of program.body[0]?.body ?? []) {
    if (node.type === 'TOMLKeyValue') {
      visitKeyValue([], node);
      continue;
    }
    // The tables a header only passes through, located at their segment (`parameters` in
    // `[tools.parameters.filter]`), with the array-of-tables element a segment goes through.
    const keys = node.key.keys;
    let segment = 0;
    for (const [index, part] of node.resolvedKey.entries()) {
      if (typeof part === 'number' || segment === keys.length - 1) continue;
      const key = keys[segment++] as AST.TOMLBare | AST.TOMLQuoted;
      record(node.resolvedKey.slice(0, index + 1), key, false);
      if (typeof node.resolvedKey[index + 1] === 'number') {
        record(node.resolvedKey.slice(0, index + 2), key, false);
      }
    }
    if (node.kind === 'array') record(node.resolvedKey.slice(0, -1), node, true);
    record(node.resolvedKey, node, true);
    for (const keyValue of node.body) visitKeyValue(node.resolvedKey, keyValue);
  }
  const positions = new Map<string, Position>();
  for (const [key, { position }] of located) positions.set(key, position);
  return positions;
}
