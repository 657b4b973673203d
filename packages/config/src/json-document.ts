import os from 'node:os';
import {
  findNodeAtLocation,
  type JSONPath,
  type Node,
  type ParseErrorCode,
  parseTree,
  printParseErrorCode,
  visit,
} from 'jsonc-parser';
import type { ConfigIssue } from './config-error.js';
import {
  createIssue,
  createLineIndex,
  type IssueText,
  type JsonPath,
  type Position,
} from './issues.js';

/** A parsed strict-JSON document that can say where a value (or its key) is. */
export interface JsonDocument {
  value: unknown;
  /** Position of the value at `jsonPath` (or of its key); the nearest existing ancestor when absent. */
  locate(jsonPath: JsonPath, atKey?: boolean): Position | undefined;
  /** Keys written twice in one object (JSON.parse would silently keep the last). */
  duplicateKeys: { jsonPath: JsonPath; position: Position }[];
}

/** A JSON syntax error with its position. */
export interface JsonSyntaxError {
  position: Position;
  text: IssueText;
}

const SYNTAX_TEXT: Record<string, IssueText> = {
  InvalidSymbol: { problem: 'unexpected character', fix: 'write strict JSON' },
  InvalidNumberFormat: { problem: 'invalid number', fix: 'write a JSON number such as 10 or 2.5' },
  PropertyNameExpected: { problem: 'expected a key in double quotes', fix: 'write "key": value' },
  ValueExpected: {
    problem: 'expected a value',
    fix: 'write a string, number, object, array, true, false or null',
  },
  ColonExpected: { problem: 'expected ":" after the key', fix: 'write "key": value' },
  CommaExpected: { problem: 'expected "," between entries', fix: 'add the missing comma' },
  CloseBraceExpected: { problem: 'expected "}"', fix: 'close the object' },
  CloseBracketExpected: { problem: 'expected "]"', fix: 'close the array' },
  EndOfFileExpected: { problem: 'unexpected content after the JSON value', fix: 'remove it' },
  InvalidCommentToken: {
    problem: 'comments are not allowed (the file is strict JSON)',
    fix: 'remove the comment',
  },
  UnexpectedEndOfComment: { problem: 'unterminated comment', fix: 'remove the comment' },
  UnexpectedEndOfString: { problem: 'unterminated string', fix: 'close it with "' },
  UnexpectedEndOfNumber: { problem: 'unterminated number', fix: 'complete the number' },
  InvalidUnicode: { problem: 'invalid \\u escape', fix: 'write \\u and four hex digits' },
  InvalidEscapeCharacter: { problem: 'invalid escape', fix: 'escape a backslash as \\\\' },
  InvalidCharacter: {
    problem: 'control character in a string',
    fix: 'escape it (\\n, \\t, \\u0000)',
  },
};

const STRICT = { allowTrailingComma: false, disallowComments: true } as const;

/**
 * Parses strict JSON (no comments, no trailing commas) with positions. A leading byte-order mark is
 * skipped. Returns the first syntax error instead of a document when there is one. One streaming
 * pass finds syntax errors and duplicate keys; the position tree is built only when something is
 * located (an error or a warning), so a valid file costs a scan and `JSON.parse`.
 */
export function parseJsonDocument(source: string): JsonDocument | JsonSyntaxError {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const lineIndex = createLineIndex(text);
  let scan: ScanResult;
  try {
    scan = scanStrictJson(text);
  } catch {
    return {
      position: lineIndex(0),
      text: { problem: 'invalid JSON: nested too deeply', fix: 'flatten the document' },
    };
  }
  const first = scan.firstError;
  if (first !== undefined || !scan.sawValue) {
    const offset = first?.offset ?? 0;
    if (text.trim() === '') {
      return {
        position: lineIndex(offset),
        text: {
          problem: 'the file is empty',
          fix: 'write {"version": 1, "hooks": {}} or delete the file',
        },
      };
    }
    const name = first === undefined ? 'ValueExpected' : printParseErrorCode(first.error);
    return { position: lineIndex(offset), text: trailingComma(text, offset) ?? syntaxText(name) };
  }
  let value: unknown;
  try {
    // JSON.parse (not the tree) builds the value: it keeps a "__proto__" key as a plain key.
    value = JSON.parse(text);
  } catch (error) {
    return {
      position: lineIndex(0),
      text: { problem: `invalid JSON: ${(error as Error).message}`, fix: 'write strict JSON' },
    };
  }
  let tree: Node | undefined;
  return {
    value,
    locate(jsonPath, atKey = false) {
      try {
        tree ??= parseTree(text, [], STRICT) as Node;
      } catch {
        // Nested almost too deeply for the scan: the message goes without a position.
        return undefined;
      }
      const node = nearestNode(tree, jsonPath);
      const keyNode =
        atKey && node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
      return lineIndex((keyNode ?? node).offset);
    },
    duplicateKeys: scan.duplicates.map(({ jsonPath, offset }) => ({
      jsonPath,
      position: lineIndex(offset),
    })),
  };
}

interface ScanResult {
  firstError: { error: ParseErrorCode; offset: number } | undefined;
  sawValue: boolean;
  duplicates: { jsonPath: JsonPath; offset: number }[];
}

function scanStrictJson(text: string): ScanResult {
  const result: ScanResult = { firstError: undefined, sawValue: false, duplicates: [] };
  // The keys seen in each open object; `undefined` marks an open array.
  const open: (Set<string> | undefined)[] = [];
  const sawValue = () => {
    if (open.length === 0) result.sawValue = true;
  };
  visit(
    text,
    {
      onObjectBegin() {
        sawValue();
        open.push(new Set());
      },
      onObjectEnd() {
        open.pop();
      },
      onArrayBegin() {
        sawValue();
        open.push(undefined);
      },
      onArrayEnd() {
        open.pop();
      },
      onLiteralValue: sawValue,
      onObjectProperty(property, offset, _length, _line, _character, pathSupplier) {
        const keys = open[open.length - 1];
        if (keys === undefined) return;
        // The path is only built for the rare duplicate.
        if (keys.has(property)) {
          result.duplicates.push({
            jsonPath: [...(pathSupplier() as JSONPath), property],
            offset,
          });
        }
        keys.add(property);
      },
      onError(error, offset) {
        result.firstError ??= { error, offset };
      },
    },
    STRICT,
  );
  return result;
}

/**
 * The first syntax error of strict-JSON `text` as an issue that reads like hooks.json's
 * (`file:line:column`, what is wrong, the fix; `file` shown with `~` for `homeDir`), or undefined
 * when the text is valid JSON. For the other agents' JSON files `hooks import` reads.
 */
export function jsonSyntaxIssue(
  text: string,
  file: string,
  homeDir: string = os.homedir(),
): ConfigIssue | undefined {
  const document = parseJsonDocument(text);
  if (!isJsonSyntaxError(document)) return undefined;
  return createIssue({ file, homeDir, position: document.position, text: document.text });
}

/** True when {@link parseJsonDocument} returned a syntax error. */
export function isJsonSyntaxError(
  result: JsonDocument | JsonSyntaxError,
): result is JsonSyntaxError {
  return 'position' in result;
}

function syntaxText(name: string): IssueText {
  const text = SYNTAX_TEXT[name] ?? { problem: `invalid JSON (${name})`, fix: 'write strict JSON' };
  return {
    problem: `invalid JSON: ${text.problem}`,
    ...(text.fix === undefined ? {} : { fix: text.fix }),
  };
}

function trailingComma(text: string, offset: number): IssueText | undefined {
  const closer = text[offset];
  if (closer !== '}' && closer !== ']') return undefined;
  let index = offset - 1;
  while (index >= 0 && /\s/.test(text[index] ?? '')) index--;
  if (text[index] !== ',') return undefined;
  return { problem: 'invalid JSON: trailing comma', fix: `remove the comma before "${closer}"` };
}

function nearestNode(tree: Node, jsonPath: JsonPath): Node {
  for (let length = jsonPath.length; length > 0; length--) {
    const node = findNodeAtLocation(tree, jsonPath.slice(0, length) as (string | number)[]);
    if (node !== undefined) return node;
  }
  return tree;
}
