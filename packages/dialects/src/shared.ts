import path from 'node:path';
import type { HookEvent } from '@soong-agent/protocol';
import type { DialectContext, DialectLog, DialectRun, DialectVerdict } from './dialect.js';

/** Helpers the agent dialect files share: reading our input, building their payloads, verdicts. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Our §2.1 tool object, as the engine passes it (already bounded). */
export interface OurTool {
  name: string;
  call_id: string;
  input: unknown;
  paths?: string[];
}

/** The call's tool in our input (PreToolUse, PostToolUse). */
export function toolOf(input: Readonly<Record<string, unknown>>): OurTool {
  const tool = isRecord(input.tool) ? input.tool : {};
  return {
    name: typeof tool.name === 'string' ? tool.name : '',
    call_id: typeof tool.call_id === 'string' ? tool.call_id : '',
    input: tool.input,
  };
}

/**
 * The name and input one dialect shows for the call's tool. The host's view (`context.tool`, SPEC
 * §11) gives the name and the input in our canonical tool's shape; a declared name that is one of
 * the dialect's own tools gets that tool's input conversion. Default: the dialect's own mapping of
 * our canonical name and input.
 */
export function viewOf(
  tool: OurTool,
  context: DialectContext,
  names: Readonly<Record<string, string>>,
  mapInput: (ours: string, input: unknown) => unknown,
): { name: string; input: unknown } {
  const declared = context.tool?.name;
  const name =
    declared ?? (Object.hasOwn(names, tool.name) ? (names[tool.name] as string) : tool.name);
  const inverse = invert(names);
  const kind =
    declared !== undefined && Object.hasOwn(inverse, declared)
      ? (inverse[declared] as string)
      : tool.name;
  const raw = context.tool?.input !== undefined ? context.tool.input : tool.input;
  return { name, input: mapInput(kind, raw) };
}

/** A path argument made absolute against the project dir (hooks of every agent see absolute paths). */
export function absolutePath(value: unknown, projectDir: string): unknown {
  return typeof value === 'string' ? path.resolve(projectDir, value) : value;
}

/** The text of our PostToolUse result: the content, or the summary with the artifact's path. */
export function resultText(input: Readonly<Record<string, unknown>>): {
  text: string;
  isError: boolean;
} {
  const result = isRecord(input.result) ? input.result : {};
  const isError = result.is_error === true;
  if (typeof result.content === 'string') return { text: result.content, isError };
  const ref = isRecord(result.artifact_ref) ? result.artifact_ref : {};
  const summary = typeof result.summary === 'string' ? result.summary : '';
  return {
    text: `${summary}\n[full result (${String(result.bytes)} bytes): ${String(ref.path)}]`,
    isError,
  };
}

/** Stop's input: a Stop hook already prevented this loop's end. */
export function stopHookActive(input: Readonly<Record<string, unknown>>): boolean {
  return Number(input.prevented_count ?? 0) > 0 || input.stop_hook_active === true;
}

export function stringField(input: Readonly<Record<string, unknown>>, key: string): string {
  const value = input[key];
  return typeof value === 'string' ? value : '';
}

/**
 * The JSON object on stdout, when stdout's first non-blank character is `{` and it parses (the
 * Claude Code rule the other agents copied); undefined for anything else.
 */
export function parseJsonObject(stdout: string): Record<string, unknown> | undefined {
  const text = stdout.trim();
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * When stdout as a whole is no JSON object, its last non-empty line may be (a hook that logged
 * before answering): SPEC §2.2, an intended deny is never lost.
 */
export function lastLineJson(stdout: string): Record<string, unknown> | undefined {
  const lines = stdout.split('\n').filter((line) => line.trim() !== '');
  if (lines.length < 2) return undefined;
  return parseJsonObject(lines.at(-1) as string);
}

/** The logs entry for plain stdout (not JSON): the hook's own log lines, never sent to the model. */
export function plainStdoutLogs(stdout: string): DialectLog[] {
  const text = stdout.trim();
  return text === '' ? [] : [{ source: 'logs', message: text }];
}

/**
 * The JSON answer of an agent that reads stdout as one JSON object. When stdout is not one, its
 * text goes to `logs`, and its last line still answers when `denies` says that line denies, with a
 * warning (`why` says more): SPEC §2.2, an intended deny is never lost.
 */
export function answerKeepingDeny(
  stdout: string,
  logs: DialectLog[],
  denies: (json: Record<string, unknown>) => boolean,
  why = '',
): Record<string, unknown> | undefined {
  const json = parseJsonObject(stdout);
  if (json !== undefined) return json;
  logs.push(...plainStdoutLogs(stdout));
  const rescued = lastLineJson(stdout);
  if (rescued === undefined || !denies(rescued)) return undefined;
  logs.push({
    source: 'warning',
    message: `stdout held more than the JSON answer${why}; its last line denies, and the deny stands`,
  });
  return rescued;
}

/**
 * The failed verdict for a stdout that starts like JSON but gave no JSON object (`json`
 * undefined); undefined otherwise. `why` says more.
 */
export function brokenJsonVerdict(
  stdout: string,
  json: Record<string, unknown> | undefined,
  logs: DialectLog[],
  why = '',
): DialectVerdict | undefined {
  if (json !== undefined || !stdout.trim().startsWith('{')) return undefined;
  return {
    decision: 'none',
    failure: {
      kind: 'protocol_error',
      message: `stdout starts like JSON but is not a JSON object${why}`,
    },
    logs,
  };
}

/** Case-insensitive compare of a decision word, so `"Deny"` and `"BLOCK"` are never lost. */
export function word(value: unknown): string | undefined {
  return typeof value === 'string' ? value.trim().toLowerCase() : undefined;
}

/** True when the exact spelling is not the one the agent documents (a warning is due). */
export function misspelt(value: unknown, expected: readonly string[]): boolean {
  return typeof value === 'string' && !expected.includes(value);
}

export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The warning for output keys a hook printed that do nothing here (one per run, SPEC §12). */
export function ignoredKeysWarning(agent: string, keys: readonly string[]): DialectLog[] {
  if (keys.length === 0) return [];
  return [
    {
      source: 'warning',
      message: `${agent} output keys ignored: ${keys.map((key) => JSON.stringify(key)).join(', ')} (hooks here can block or allow, never rewrite input or results, add context or show messages)`,
    },
  ];
}

/** Keys of `json` (one level into `nested` objects, as `outer.inner`) that are not in `known`. */
export function unknownKeysOf(
  json: Record<string, unknown>,
  known: ReadonlySet<string>,
  nested: Readonly<Record<string, ReadonlySet<string>>> = {},
): string[] {
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(json)) {
    const inner = nested[key];
    if (inner !== undefined && isRecord(value)) {
      for (const innerKey of Object.keys(value)) {
        if (!inner.has(innerKey)) ignored.push(`${key}.${innerKey}`);
      }
    } else if (!known.has(key)) ignored.push(key);
  }
  return ignored;
}

/** A verdict for a non-zero exit that is not a block: failed, with an intended deny kept. */
export function failedExit(
  run: DialectRun,
  logs: DialectLog[],
  deny: { reason?: string } | undefined,
): DialectVerdict {
  const message =
    run.exitCode === null
      ? `hook was killed by ${run.signal ?? 'a signal'}`
      : `hook exited with code ${run.exitCode}`;
  const failure = { kind: 'exit_code' as const, message };
  if (deny !== undefined) {
    return { decision: 'deny', ...optionalReason(deny.reason), failure, logs };
  }
  return { decision: 'none', failure, logs };
}

export function optionalReason(reason: string | undefined): { reason?: string } {
  return reason === undefined ? {} : { reason };
}

/** Events on which a deny blocks (the others record it as `hook_decision_ignored`). */
export function blocks(event: HookEvent): boolean {
  return event === 'PreToolUse' || event === 'Stop';
}

/** ISO timestamp of our input, or now. */
export function timestampOf(input: Readonly<Record<string, unknown>>): string {
  return typeof input.timestamp === 'string' ? input.timestamp : new Date().toISOString();
}

/** Inverts a frozen ours → theirs table (first wins), for converters. */
export function invert(table: Readonly<Record<string, string>>): Record<string, string> {
  const inverted: Record<string, string> = {};
  for (const [ours, theirs] of Object.entries(table)) inverted[theirs] ??= ours;
  return inverted;
}
