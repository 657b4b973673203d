import { readFileSync } from 'node:fs';
import { CliError } from '../errors.js';
import { createCallIdGenerator } from './call-ids.js';
import type { ChatMessage, ModelProvider, ModelRequest, ModelResponse } from './provider.js';

/** One scripted model turn (SPEC §6). */
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

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value)}` : `a ${typeof value}`;
}

class ScriptProblem extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(problem);
  }
}

function expectKeys(value: JsonObject, path: string, allowed: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new ScriptProblem(
        path === '' ? key : `${path}.${key}`,
        `unknown key; expected one of ${allowed.map((name) => JSON.stringify(name)).join(', ')}`,
      );
    }
  }
}

function parseToolCall(value: unknown, path: string): ScriptedTurn['toolCalls'][number] {
  if (!isObject(value)) throw new ScriptProblem(path, `expected an object, got ${describe(value)}`);
  expectKeys(value, path, ['id', 'name', 'input']);
  const { id, name, input } = value;
  if (typeof name !== 'string' || name === '') {
    throw new ScriptProblem(`${path}.name`, `expected a non-empty string, got ${describe(name)}`);
  }
  if (id !== undefined && (typeof id !== 'string' || id === '')) {
    throw new ScriptProblem(`${path}.id`, `expected a non-empty string, got ${describe(id)}`);
  }
  if (input !== undefined && !isObject(input)) {
    throw new ScriptProblem(`${path}.input`, `expected an object, got ${describe(input)}`);
  }
  return { ...(id === undefined ? {} : { id }), name, input: input ?? {} };
}

function parseTurn(value: unknown, path: string): ScriptedTurn {
  if (!isObject(value)) throw new ScriptProblem(path, `expected an object, got ${describe(value)}`);
  expectKeys(value, path, ['text', 'tool_calls', 'expect']);
  const text = value.text ?? '';
  if (typeof text !== 'string') {
    throw new ScriptProblem(`${path}.text`, `expected a string, got ${describe(text)}`);
  }
  const calls = value.tool_calls ?? [];
  if (!Array.isArray(calls)) {
    throw new ScriptProblem(`${path}.tool_calls`, `expected an array, got ${describe(calls)}`);
  }
  const turn: ScriptedTurn = {
    text,
    toolCalls: calls.map((call, index) => parseToolCall(call, `${path}.tool_calls[${index}]`)),
  };
  if (value.expect !== undefined) {
    const expectation = value.expect;
    const expectPath = `${path}.expect`;
    if (!isObject(expectation)) {
      throw new ScriptProblem(expectPath, `expected an object, got ${describe(expectation)}`);
    }
    expectKeys(expectation, expectPath, ['last_user_message_contains']);
    const contains = expectation.last_user_message_contains;
    if (contains !== undefined && typeof contains !== 'string') {
      throw new ScriptProblem(
        `${expectPath}.last_user_message_contains`,
        `expected a string, got ${describe(contains)}`,
      );
    }
    turn.expect = contains === undefined ? {} : { lastUserMessageContains: contains };
  }
  return turn;
}

/**
 * Validates a parsed scripted-model document. Throws `CliError` `SCRIPT_INVALID` naming the file,
 * the JSON path of the bad value and what was expected.
 */
export function parseModelScript(document: unknown, file: string): ModelScript {
  try {
    if (!isObject(document)) {
      throw new ScriptProblem('', `expected an object with "turns", got ${describe(document)}`);
    }
    expectKeys(document, '', ['$schema', 'turns']);
    const turns = document.turns;
    if (!Array.isArray(turns) || turns.length === 0) {
      throw new ScriptProblem(
        'turns',
        `expected a non-empty array of turns, got ${describe(turns)}`,
      );
    }
    const parsed = turns.map((turn, index) => parseTurn(turn, `turns[${index}]`));
    const seen = new Map<string, string>();
    parsed.forEach((turn, turnIndex) => {
      turn.toolCalls.forEach((call, callIndex) => {
        if (call.id === undefined) return;
        const path = `turns[${turnIndex}].tool_calls[${callIndex}].id`;
        const earlier = seen.get(call.id);
        if (earlier !== undefined) {
          throw new ScriptProblem(
            path,
            `duplicate call id ${JSON.stringify(call.id)} (also at ${earlier}); call ids are unique in a session`,
          );
        }
        seen.set(call.id, path);
      });
    });
    return { file, turns: parsed };
  } catch (error) {
    if (error instanceof ScriptProblem) {
      const where = error.path === '' ? '' : ` ${error.path}:`;
      throw new CliError({
        code: 'SCRIPT_INVALID',
        message: `invalid scripted model file ${file}:${where} ${error.message}`,
      });
    }
    throw error;
  }
}

/** Reads and validates a scripted-model file (SPEC §6). Throws `CliError` `SCRIPT_INVALID`. */
export function loadModelScript(file: string): ModelScript {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new CliError({
      code: 'SCRIPT_INVALID',
      message: `cannot read scripted model file ${file}: ${reason}`,
      cause: error,
    });
  }
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
