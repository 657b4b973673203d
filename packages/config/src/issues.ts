import path from 'node:path';
import { showValue } from '@soong-agent/matcher/internal';
import type { ConfigIssue } from './config-error.js';

/** A JSON path as a list of keys and indices. */
export type JsonPath = readonly (string | number)[];

/** A 1-based position in a file. */
export interface Position {
  line: number;
  column: number;
}

/** Shows `file` with the user's home as `~`, the way they would type it. */
export function displayPath(file: string, homeDir: string): string {
  const home = path.resolve(homeDir);
  if (home !== path.sep && (file === home || file.startsWith(home + path.sep))) {
    return `~${file.slice(home.length)}`;
  }
  return file;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `['hooks', 'PreToolUse', 0, 'matcher']` → `hooks.PreToolUse[0].matcher`. */
export function formatJsonPath(jsonPath: JsonPath): string {
  let text = '';
  for (const segment of jsonPath) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

/** Converts string offsets to 1-based line and column. */
export function createLineIndex(text: string): (offset: number) => Position {
  const starts = [0];
  for (let index = 0; index < text.length; index++) {
    if (text.charCodeAt(index) === 10) starts.push(index + 1);
  }
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (starts[low] ?? 0) + 1 };
  };
}

/** What an issue says, before it is placed in a file. */
export interface IssueText {
  problem: string;
  expected?: string;
  fix?: string;
}

/** Builds a {@link ConfigIssue} with its display message. */
export function createIssue(options: {
  file: string;
  homeDir: string;
  position?: Position | undefined;
  jsonPath?: JsonPath | undefined;
  text: IssueText;
}): ConfigIssue {
  const { file, position, jsonPath, text } = options;
  const pathText = jsonPath === undefined ? '' : formatJsonPath(jsonPath);
  const location =
    displayPath(file, options.homeDir) +
    (position === undefined ? '' : `:${position.line}:${position.column}`);
  const message = `${location} ${pathText === '' ? '' : `${pathText}: `}${text.problem}${
    text.fix === undefined ? '' : `; ${text.fix}`
  }`;
  const issue: ConfigIssue = { file, problem: text.problem, message };
  if (position !== undefined) {
    issue.line = position.line;
    issue.column = position.column;
  }
  if (pathText !== '') issue.path = pathText;
  if (text.expected !== undefined) issue.expected = text.expected;
  if (text.fix !== undefined) issue.fix = text.fix;
  return issue;
}

/** Orders issues by position in the file; issues without one keep their order, after the others. */
export function sortIssues(issues: readonly ConfigIssue[]): ConfigIssue[] {
  const rank = (issue: ConfigIssue) =>
    issue.line === undefined ? Number.MAX_SAFE_INTEGER : issue.line * 1e6 + (issue.column ?? 0);
  return issues
    .map((issue, index) => ({ issue, index }))
    .sort((a, b) => rank(a.issue) - rank(b.issue) || a.index - b.index)
    .map(({ issue }) => issue);
}

/** A value with its type for "got …" messages (`string "10"`, `array []`, `null`, `date …`), the type said once. */
export function showTypedValue(value: unknown): string {
  if (value === null || value instanceof Date) return showValue(value);
  return `${typeName(value)} ${showValue(value)}`;
}

/** The JSON type name of a value, for "expected X, got Y" messages. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  return typeof value === 'object' ? 'object' : typeof value;
}
