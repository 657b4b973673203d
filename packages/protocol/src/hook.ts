import { type HookInput, HookInputSchema } from './hook-input.js';
import type { HookOutput } from './hook-output.js';
import { describeIssues, toProtocolIssues } from './protocol-error.js';

export type { HookInput, HookInputFor } from './hook-input.js';
export type { HookOutput } from './hook-output.js';

/** How the agent runs a hook (spec §8): one process per call, or one process per session. */
export type HookMode = 'spawn' | 'worker';

/** What a handler learns besides its input. */
export interface HookContext {
  /** `worker` when `SOONG_AGENT_HOOK_MODE` is `worker`, else `spawn` (also when run by hand). */
  mode: HookMode;
}

/** What a handler returns: a decision, or `null` / `undefined` for no decision. */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler may end without a return statement
export type HookResult = HookOutput | null | undefined | void;

/** A hook's logic: one input in, one decision (or none) out. Called once per call, one at a time. */
export type HookHandler = (
  input: HookInput,
  context: HookContext,
) => HookResult | Promise<HookResult>;

/** Options of {@link defineHook}. */
export interface DefineHookOptions {
  /** Prefix of the lines the helper writes to stderr. @default the script's file name */
  name?: string | undefined;
}

/**
 * Runs `handler` as a soong-agent hook in the mode the agent chose (`SOONG_AGENT_HOOK_MODE`):
 *
 * - `spawn` (or unset): reads stdin to its end, validates it (`HookInputSchema`), calls the handler,
 *   prints its output as one JSON line (nothing for `null` / `undefined`) and exits 0.
 * - `worker`: reads one request per line (`{"id":N,"input":…}`), answers each with
 *   `{"id":N,"output":…}` (`null` for no decision), one at a time, and exits 0 at the end of stdin.
 *
 * Input that is not a valid request or hook input, a handler that throws and an output that cannot
 * be serialised all end the process with exit code 1 after a line on stderr, in both modes: the
 * call fails (`exit_code` for a spawn hook, `worker_exited` for a worker, which the agent replaces),
 * so `"on_failure": "deny"` fails closed either way. Never resolves once the process exits.
 */
export function defineHook(handler: HookHandler, options: DefineHookOptions = {}): Promise<void> {
  if (typeof handler !== 'function') {
    throw new TypeError(
      `defineHook(handler): handler must be a function, got ${describeValue(handler)}`,
    );
  }
  const name = options.name ?? scriptName();
  const mode: HookMode = process.env.SOONG_AGENT_HOOK_MODE === 'worker' ? 'worker' : 'spawn';
  const context: HookContext = Object.freeze({ mode });
  const fail = (what: string, error?: unknown): Promise<never> => {
    const detail = error === undefined ? '' : `: ${describeError(error)}`;
    process.stderr.write(`${name}: ${what}${detail}\n`);
    return exit(1);
  };
  const decide = async (value: unknown, where: string): Promise<string> => {
    const parsed = HookInputSchema.safeParse(value);
    if (!parsed.success) {
      return fail(
        `${where} is not a hook input (spec §2.1): ${describeIssues(toProtocolIssues(parsed.error))}`,
      );
    }
    let output: HookResult;
    try {
      output = await handler(parsed.data, context);
    } catch (error) {
      return fail(`the handler threw on ${parsed.data.event}`, error);
    }
    try {
      return JSON.stringify(output ?? null);
    } catch (error) {
      return fail(`the handler's output for ${parsed.data.event} is not JSON`, error);
    }
  };
  return mode === 'worker' ? serveWorker(decide, fail) : serveSpawn(decide, fail);
}

async function serveSpawn(
  decide: (value: unknown, where: string) => Promise<string>,
  fail: (what: string, error?: unknown) => Promise<never>,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  let value: unknown;
  try {
    value = JSON.parse(stripBom(Buffer.concat(chunks).toString('utf8')));
  } catch (error) {
    return fail('stdin is not JSON', error);
  }
  const output = await decide(value, 'stdin');
  if (output !== 'null') await write(`${output}\n`);
  return exit(0);
}

function serveWorker(
  decide: (value: unknown, where: string) => Promise<string>,
  fail: (what: string, error?: unknown) => Promise<never>,
): Promise<void> {
  const lines: string[] = [];
  let partial = '';
  let ended = false;
  let busy = false;
  const pump = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    for (let line = lines.shift(); line !== undefined; line = lines.shift()) {
      if (line.trim() === '') continue;
      let request: { id?: unknown; input?: unknown };
      try {
        request = JSON.parse(line) as typeof request;
      } catch (error) {
        return fail('a request line is not JSON', error);
      }
      const id = request?.id;
      if (typeof request !== 'object' || request === null || !Number.isSafeInteger(id)) {
        return fail('a request line is not {"id":N,"input":{...}} (spec §8)');
      }
      const output = await decide(request.input, `the input of request ${id}`);
      // A pipe to the agent: written at once (synchronous on Linux), no need to wait.
      process.stdout.write(`{"id":${id},"output":${output}}\n`);
    }
    busy = false;
    if (ended) await exit(0);
  };
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (text: string) => {
    const parts = (partial + text).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
    void pump();
  });
  process.stdin.on('end', () => {
    if (partial !== '') lines.push(partial);
    partial = '';
    ended = true;
    void pump();
  });
  return new Promise<void>(() => {});
}

function write(text: string): Promise<void> {
  return new Promise((resolve) => {
    process.stdout.write(text, () => resolve());
  });
}

function exit(code: number): Promise<never> {
  // stdout and stderr are pipes or files: their writes are done by now (synchronous on Linux),
  // and the callback of `write` above waited for the rest.
  process.exit(code);
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function scriptName(): string {
  const script = process.argv[1] ?? 'hook';
  return script.slice(script.lastIndexOf('/') + 1) || 'hook';
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return describeValue(error);
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  try {
    return String(JSON.stringify(value));
  } catch {
    return String(value);
  }
}
