import { closestMatch } from '@soong-agent/matcher';
import { showValue } from '@soong-agent/matcher/internal';
import { z } from 'zod';
import { type IssueText, type JsonPath, showTypedValue } from './issues.js';

/** A schema problem, placed by JSON path; `atKey` when the key itself (not its value) is wrong. */
export interface SchemaProblem {
  jsonPath: JsonPath;
  atKey: boolean;
  text: IssueText;
}

// Walks schemas through zod 4's public classes and accessors (`unwrap()`, `shape`, `element`,
// `valueType`, `options`, `in`), never through `_zod` internals.
type Wrapper =
  | z.ZodOptional
  | z.ZodDefault
  | z.ZodPrefault
  | z.ZodNullable
  | z.ZodReadonly
  | z.ZodCatch;
const WRAPPERS = [
  z.ZodOptional,
  z.ZodDefault,
  z.ZodPrefault,
  z.ZodNullable,
  z.ZodReadonly,
  z.ZodCatch,
];

const isWrapper = (schema: z.ZodType): schema is Wrapper =>
  WRAPPERS.some((wrapper) => schema instanceof wrapper);

/** Walks wrappers and pipes, collecting the first description on the way. */
function unwrap(schema: z.ZodType): { schema: z.ZodType; description: string | undefined } {
  let current = schema;
  let description = current.description;
  for (;;) {
    const next = isWrapper(current)
      ? current.unwrap()
      : current instanceof z.ZodPipe
        ? current.in
        : undefined;
    if (next === undefined) return { schema: current, description };
    current = next as z.ZodType;
    description ??= current.description;
  }
}

/** The schema at a JSON path (best effort: a union takes the first option that has the key). */
function schemaAt(root: z.ZodType, jsonPath: JsonPath): z.ZodType | undefined {
  let current: z.ZodType | undefined = root;
  for (const segment of jsonPath) {
    if (current === undefined) return undefined;
    current = childOf(unwrap(current).schema, segment);
  }
  return current;
}

function childOf(schema: z.ZodType, segment: string | number): z.ZodType | undefined {
  if (schema instanceof z.ZodObject) {
    return typeof segment === 'string'
      ? (schema.shape[segment] as z.ZodType | undefined)
      : undefined;
  }
  if (schema instanceof z.ZodArray) return schema.element as z.ZodType;
  if (schema instanceof z.ZodRecord) return schema.valueType as z.ZodType;
  if (schema instanceof z.ZodUnion) {
    for (const option of schema.options) {
      const child = childOf(unwrap(option as z.ZodType).schema, segment);
      if (child !== undefined) return child;
    }
  }
  return undefined;
}

function keysAt(root: z.ZodType, jsonPath: JsonPath): string[] {
  const schema = schemaAt(root, jsonPath);
  if (schema === undefined) return [];
  const inner = unwrap(schema).schema;
  return inner instanceof z.ZodObject ? Object.keys(inner.shape) : [];
}

function describedAt(root: z.ZodType, jsonPath: JsonPath): string | undefined {
  const schema = schemaAt(root, jsonPath);
  return schema === undefined ? undefined : unwrap(schema).description;
}

const quote = (value: unknown) => JSON.stringify(value);

function oneOf(values: readonly unknown[]): string {
  return values.length === 1 ? quote(values[0]) : `one of ${values.map(quote).join(', ')}`;
}

function rangeText(issue: {
  code: string;
  inclusive?: boolean;
  minimum?: unknown;
  maximum?: unknown;
}) {
  return issue.code === 'too_small'
    ? `${issue.inclusive ? '≥' : '>'} ${String(issue.minimum)}`
    : `${issue.inclusive ? '≤' : '<'} ${String(issue.maximum)}`;
}

/**
 * A union whose input reached into one branch (`[tools]` as a table with a bad `known` name) is
 * reported where that branch failed, not as "not valid here" at the union: the branch that got
 * deepest into the value is the one the user meant.
 */
function innermostUnionIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  let best: readonly z.core.$ZodIssue[] | undefined;
  for (const branch of issue.errors) {
    const depth = branch[0]?.path.length ?? 0;
    if (depth > 0 && (best === undefined || depth > (best[0]?.path.length ?? 0))) best = branch;
  }
  if (best === undefined || best.length !== 1) return issue;
  const inner = innermostUnionIssue(best[0] as z.core.$ZodIssue);
  return { ...inner, path: [...issue.path, ...inner.path] } as z.core.$ZodIssue;
}

/**
 * Turns zod issues (parsed with `reportInput: true`) into problems a user can act on. `keyLabel`
 * names the keys of an object whose keys are events, so the message says "unknown event".
 */
export function describeZodIssues(
  issues: readonly z.core.$ZodIssue[],
  root: z.ZodType,
  options: { eventKeys?: readonly string[] } = {},
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const issue of issues.map(innermostUnionIssue)) {
    const jsonPath = issue.path as (string | number)[];
    const expected = describedAt(root, jsonPath);
    const withExpected = (text: IssueText): IssueText =>
      expected === undefined ? text : { ...text, expected };
    const input = (issue as { input?: unknown }).input;
    const key = jsonPath.at(-1);
    if (input === undefined && typeof key === 'string' && issue.code !== 'unrecognized_keys') {
      const values = issue.code === 'invalid_value' ? issue.values : undefined;
      const wanted = values === undefined ? expected : oneOf(values);
      problems.push({
        jsonPath,
        atKey: false,
        text: withExpected({
          problem: 'is missing',
          fix: `add ${quote(key)}${wanted === undefined ? '' : `: ${wanted}`}`,
        }),
      });
      continue;
    }
    switch (issue.code) {
      case 'unrecognized_keys': {
        const known = keysAt(root, jsonPath);
        const isEvents =
          options.eventKeys !== undefined &&
          known.length > 0 &&
          known.every((key) => options.eventKeys?.includes(key));
        for (const key of issue.keys) {
          const suggestion = closestMatch(key, known);
          const listing = `${isEvents ? 'events' : 'allowed keys'}: ${known.join(', ')}`;
          problems.push({
            jsonPath: [...jsonPath, key],
            atKey: true,
            text: {
              problem: `unknown ${isEvents ? 'event' : 'key'} ${quote(key)}`,
              fix:
                !isEvents && options.eventKeys?.includes(key) && jsonPath.length === 0
                  ? `events go inside "hooks": { ${quote(key)}: [...] }`
                  : suggestion === undefined
                    ? `remove it (${listing})`
                    : `did you mean ${quote(suggestion)}? (${listing})`,
            },
          });
        }
        break;
      }
      case 'invalid_type':
        problems.push({
          jsonPath,
          atKey: false,
          text: withExpected({
            problem: `expected ${issue.expected === 'int' ? 'an integer' : issue.expected}, got ${showTypedValue(input)}`,
            fix:
              jsonPath.length === 0
                ? 'the file must hold a JSON object'
                : `write ${expected ?? `a ${issue.expected}`}`,
          }),
        });
        break;
      case 'invalid_value': {
        const suggestion =
          typeof input === 'string'
            ? closestMatch(
                input,
                issue.values.filter((value): value is string => typeof value === 'string'),
              )
            : undefined;
        problems.push({
          jsonPath,
          atKey: false,
          text: withExpected({
            problem: `${showValue(input)} is not allowed`,
            fix:
              suggestion === undefined
                ? `write ${oneOf(issue.values)}`
                : `did you mean ${quote(suggestion)}? (${oneOf(issue.values)})`,
          }),
        });
        break;
      }
      case 'too_small':
      case 'too_big': {
        const empty =
          issue.code === 'too_small' &&
          (issue.origin === 'string' || issue.origin === 'array') &&
          Number(issue.minimum) <= 1;
        problems.push({
          jsonPath,
          atKey: false,
          text: withExpected({
            problem: empty
              ? 'is empty'
              : `${showValue(input)} is out of range (must be ${rangeText(issue)})`,
            fix: `write ${expected ?? `a value ${rangeText(issue)}`}`,
          }),
        });
        break;
      }
      case 'invalid_format': {
        const blank = typeof input === 'string' && input.trim() === '';
        problems.push({
          jsonPath,
          atKey: false,
          text: withExpected({
            problem: blank ? 'is empty' : `${showValue(input)} is not valid`,
            fix: `write ${expected ?? `a value matching ${'pattern' in issue ? issue.pattern : issue.format}`}`,
          }),
        });
        break;
      }
      case 'invalid_key': {
        const keyExpected = issue.issues
          .map((inner) => (inner.code === 'invalid_format' ? inner.pattern : undefined))
          .find((pattern) => pattern !== undefined);
        problems.push({
          jsonPath,
          atKey: true,
          text: {
            problem: `${showValue(jsonPath.at(-1))} is not a valid name`,
            fix: `rename it${keyExpected === undefined ? '' : ` to match ${keyExpected}`}`,
          },
        });
        break;
      }
      case 'invalid_union':
        problems.push({
          jsonPath,
          atKey: false,
          text: withExpected({
            problem: `${showTypedValue(input)} is not valid here`,
            ...(expected === undefined ? {} : { fix: `write ${expected}` }),
          }),
        });
        break;
      default:
        problems.push({ jsonPath, atKey: false, text: withExpected({ problem: issue.message }) });
    }
  }
  return problems;
}
