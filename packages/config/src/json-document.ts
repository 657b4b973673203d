import {
  findNodeAtLocation,
  getNodePath,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';
import { createLineIndex, type IssueText, type JsonPath, type Position } from './issues.js';

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
    problem: 'comments are not allowed (hooks.json is strict JSON)',
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

/**
 * Parses strict JSON (no comments, no trailing commas) with positions. A leading byte-order mark is
 * skipped. Returns the first syntax error instead of a document when there is one.
 */
export function parseJsonDocument(source: string): JsonDocument | JsonSyntaxError {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const lineIndex = createLineIndex(text);
  const errors: ParseError[] = [];
  let tree: Node | undefined;
  try {
    tree = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  } catch {
    return {
      position: lineIndex(0),
      text: { problem: 'invalid JSON: nested too deeply', fix: 'flatten the document' },
    };
  }
  const first = errors[0];
  if (first !== undefined || tree === undefined) {
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
  return {
    value,
    locate(jsonPath, atKey = false) {
      const node = nearestNode(tree, jsonPath);
      const keyNode =
        atKey && node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
      return lineIndex((keyNode ?? node).offset);
    },
    duplicateKeys: findDuplicateKeys(tree).map(({ jsonPath, offset }) => ({
      jsonPath,
      position: lineIndex(offset),
    })),
  };
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

function findDuplicateKeys(tree: Node): { jsonPath: JsonPath; offset: number }[] {
  const duplicates: { jsonPath: JsonPath; offset: number }[] = [];
  const stack: Node[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.type === 'object') {
      const seen = new Set<string>();
      for (const property of node.children ?? []) {
        const [keyNode, valueNode] = property.children ?? [];
        if (keyNode === undefined) continue;
        const key = String(keyNode.value);
        // The path is only built for the rare duplicate.
        if (seen.has(key))
          duplicates.push({ jsonPath: getNodePath(keyNode), offset: keyNode.offset });
        seen.add(key);
        if (valueNode !== undefined && valueNode.children !== undefined) stack.push(valueNode);
      }
    } else if (node.type === 'array') {
      for (const child of node.children ?? []) if (child.children !== undefined) stack.push(child);
    }
  }
  return duplicates.sort((a, b) => a.offset - b.offset);
}
