import { z } from 'zod';
import { CliError } from '../errors.js';
import { readTextFileSync } from '../tools/regular-file.js';
import { createCallIdGenerator } from './call-ids.js';
import type { ChatMessage, ModelProvider, ModelRequest, ModelResponse } from './provider.js';

/** One scripted model turn (spec §6). */
export interface ScriptedTurn {
  text: string;
  toolCalls: { id?: string; name: string; input: unknown }[];
  expect?: { lastUserMessageContains?: string };
}

/** A parsed scripted-model file. */
export interface ModelScript {
  file: string;
  turns: ScriptedTurn[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a value is, for "expected …, got …". */
function describe(value: unknown): string {
  if (value === undefined) return 'nothing (the key is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value)}` : `a ${typeof value}`;
}

/** Every issue a schema raises reads `expected <what>, got <the value>`. */
const expecting = (what: string) => ({
  error: (issue: { input?: unknown }) => `expected ${what}, got ${describe(issue.input)}`,
});

/** An object with exactly these keys; an unknown key names the ones allowed. */
function strictObject<Shape extends z.ZodRawShape>(shape: Shape, what = 'an object') {
  const allowed = Object.keys(shape)
    .map((name) => JSON.stringify(name))
    .join(', ');
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown key; expected one of ${allowed}`
        : `expected ${what}, got ${describe(issue.input)}`,
  });
}

const nonEmptyString = z
  .string(expecting('a non-empty string'))
  .min(1, expecting('a non-empty string'));

const toolCallSchema = strictObject({
  id: nonEmptyString.optional(),
  name: nonEmptyString,
  // Passed through as written (a copy would drop an own `__proto__` key the tool should see).
  input: z.custom<Record<string, unknown>>(isObject, expecting('an object')).optional(),
});

const turnSchema = strictObject({
  text: z.string(expecting('a string')).optional(),
  tool_calls: z.array(toolCallSchema, expecting('an array')).optional(),
  expect: strictObject({
    last_user_message_contains: z.string(expecting('a string')).optional(),
  }).optional(),
});

/** The scripted-model file (spec §6); `$schema` is for editors and may hold anything. */
const scriptSchema = strictObject(
  {
    $schema: z.unknown().optional(),
    turns: z
      .array(turnSchema, expecting('a non-empty array of turns'))
      .min(1, expecting('a non-empty array of turns')),
  },
  'an object with "turns"',
).superRefine((script, context) => {
  const seen = new Map<string, string>();
  script.turns.forEach((turn, turnIndex) => {
    (turn.tool_calls ?? []).forEach((call, callIndex) => {
      if (call.id === undefined) return;
      const path = ['turns', turnIndex, 'tool_calls', callIndex, 'id'];
      const earlier = seen.get(call.id);
      if (earlier === undefined) {
        seen.set(call.id, z.core.toDotPath(path));
        return;
      }
      context.addIssue({
        code: 'custom',
        path,
        message: `duplicate call id ${JSON.stringify(call.id)} (also at ${earlier}); call ids are unique in a session`,
      });
    });
  });
});

/** `path: problem` of an issue; an unknown key is named in the path. */
function describeIssue(issue: z.core.$ZodIssue): string {
  const path =
    issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
  return path.length === 0 ? issue.message : `${z.core.toDotPath(path)}: ${issue.message}`;
}

/**
 * Validates a parsed scripted-model document. Throws `CliError` `SCRIPT_INVALID` naming the file,
 * and for every problem the JSON path of the bad value and what was expected.
 */
export function parseModelScript(document: unknown, file: string): ModelScript {
  const parsed = scriptSchema.safeParse(document);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(describeIssue);
    throw new CliError({
      code: 'SCRIPT_INVALID',
      message:
        problems.length === 1
          ? `invalid scripted model file ${file}: ${problems[0]}`
          : `invalid scripted model file ${file}:\n${problems.map((problem) => `  ${problem}`).join('\n')}`,
    });
  }
  const turns = parsed.data.turns.map(
    (turn): ScriptedTurn => ({
      text: turn.text ?? '',
      toolCalls: (turn.tool_calls ?? []).map((call) => ({
        ...(call.id === undefined ? {} : { id: call.id }),
        name: call.name,
        input: call.input ?? {},
      })),
      ...(turn.expect === undefined
        ? {}
        : {
            expect:
              turn.expect.last_user_message_contains === undefined
                ? {}
                : { lastUserMessageContains: turn.expect.last_user_message_contains },
          }),
    }),
  );
  return { file, turns };
}

/** Scripted-model files larger than this are refused (they are hand-written JSON). */
export const MODEL_SCRIPT_MAX_BYTES = 16 * 1024 * 1024;

/** Reads and validates a scripted-model file (spec §6). Throws `CliError` `SCRIPT_INVALID`. */
export function loadModelScript(file: string): ModelScript {
  const read = readTextFileSync(file, MODEL_SCRIPT_MAX_BYTES);
  if (!('text' in read)) {
    throw new CliError({
      code: 'SCRIPT_INVALID',
      message: `cannot read scripted model file ${file}: ${read.code ?? read.problem}`,
    });
  }
  const text = read.text;
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new CliError({
      code: 'SCRIPT_INVALID',
      message: `invalid scripted model file ${file}: not valid JSON (${(error as Error).message})`,
      cause: error,
    });
  }
  return parseModelScript(document, file);
}

function lastUserMessage(messages: readonly ChatMessage[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role === 'user') return message.content;
  }
  return undefined;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

/**
 * The offline `scripted` provider: each model call consumes the next turn of the script; when the
 * turns run out the model ends with the last turn's text and no tool calls. An unmet `expect`
 * rejects with `CliError` `SCRIPT_EXPECTATION_FAILED` showing what the model was actually sent.
 * Calls without an id get `call_1`, `call_2`, … (skipping ids the script gives), unique per session.
 */
export function createScriptedProvider(script: ModelScript): ModelProvider {
  let next = 0;
  const scriptIds = script.turns.flatMap((turn) =>
    turn.toolCalls.flatMap((call) => (call.id === undefined ? [] : [call.id])),
  );
  // call_1, call_2, … for calls without an id, skipping every id the script gives.
  const ids = createCallIdGenerator(new Set(scriptIds));
  return {
    id: `scripted:${script.file}`,
    async complete(request: ModelRequest): Promise<ModelResponse> {
      const index = next;
      next += 1;
      const turn = script.turns[index];
      if (turn === undefined) {
        return { text: script.turns[script.turns.length - 1]?.text ?? '', toolCalls: [] };
      }
      const wanted = turn.expect?.lastUserMessageContains;
      if (wanted !== undefined) {
        const actual = lastUserMessage(request.messages);
        if (actual === undefined || !actual.includes(wanted)) {
          const sent =
            actual === undefined
              ? 'no user message was sent'
              : `the last user message sent was:\n${indent(actual)}`;
          throw new CliError({
            code: 'SCRIPT_EXPECTATION_FAILED',
            message: `${script.file} turns[${index}].expect.last_user_message_contains ${JSON.stringify(wanted)} not met: ${sent}`,
          });
        }
      }
      return {
        text: turn.text,
        toolCalls: turn.toolCalls.map((call) => ({ ...call, id: call.id ?? ids.next() })),
      };
    },
  };
}
