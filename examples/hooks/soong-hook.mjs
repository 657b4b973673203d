// soong-hook.mjs: one handler for both ways soong-agent runs a hook, for Node hooks without
// dependencies. Copy it next to your hook and import it:
//
//   import { defineHook } from './soong-hook.mjs';
//   await defineHook(async (input, { mode }) => ({ decision: 'allow' }));  // or undefined: no decision
//
// With a package manager at hand, `@soong-agent/protocol/hook` exports the same `defineHook` and
// also checks the input against the protocol's schema; this file checks only `protocol_version`
// and `event`. Both behave as follows (SOONG_AGENT_HOOK_MODE says the mode):
//
//   spawn (unset or "spawn")   reads stdin to its end, calls the handler once, prints its output
//                              as one JSON line (nothing for undefined/null), exits 0
//   worker ("worker")          reads one request per line, {"id":N,"input":{...}}, calls the
//                              handler for each, one at a time, answers {"id":N,"output":...}
//                              (null for no decision); exits 0 at the end of stdin
//   invalid input, a handler   a line on stderr and exit 1, in both modes: the call fails
//   that throws, an output     (spawn: exit_code; worker: worker_exited, and the agent starts a
//   JSON cannot hold           fresh worker for the next call), so "on_failure": "deny" fails closed

const HOOK_EVENTS = new Set([
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'Stop',
]);

/**
 * Runs `handler(input, { mode })` as a soong-agent hook in the mode the agent chose.
 * @param {(input: object, context: { mode: 'spawn' | 'worker' }) => unknown} handler
 * @param {{ name?: string }} [options] name: prefix of the stderr lines (default: the script's name)
 * @returns {Promise<void>} never resolves: the process exits when it is done
 */
export function defineHook(handler, options = {}) {
  if (typeof handler !== 'function') {
    throw new TypeError(`defineHook(handler): handler must be a function, got ${typeof handler}`);
  }
  const script = process.argv[1] ?? 'hook';
  const name = options.name ?? (script.slice(script.lastIndexOf('/') + 1) || 'hook');
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: set by the agent for the hook, not a build input
  const mode = process.env.SOONG_AGENT_HOOK_MODE === 'worker' ? 'worker' : 'spawn';
  const context = Object.freeze({ mode });
  const fail = (what, error) => {
    const detail =
      error === undefined ? '' : `: ${error instanceof Error ? error.stack : String(error)}`;
    process.stderr.write(`${name}: ${what}${detail}\n`);
    process.exit(1);
  };
  const decide = async (input, where) => {
    const problem = checkInput(input);
    if (problem !== undefined) fail(`${where} is not a hook input (spec §2.1): ${problem}`);
    let output;
    try {
      output = await handler(input, context);
    } catch (error) {
      fail(`the handler threw on ${input.event}`, error);
    }
    try {
      return JSON.stringify(output ?? null);
    } catch (error) {
      fail(`the handler's output for ${input.event} is not JSON`, error);
    }
  };
  return mode === 'worker' ? serveWorker(decide, fail) : serveSpawn(decide, fail);
}

function checkInput(input) {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return 'a JSON object was expected';
  }
  if (input.protocol_version !== 1)
    return `protocol_version is ${JSON.stringify(input.protocol_version)}, expected 1`;
  if (!HOOK_EVENTS.has(input.event))
    return `event is ${JSON.stringify(input.event)}, not a hook event`;
  return undefined;
}

async function serveSpawn(decide, fail) {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  let input;
  try {
    input = JSON.parse(
      Buffer.concat(chunks)
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
    );
  } catch (error) {
    fail('stdin is not JSON', error);
  }
  const output = await decide(input, 'stdin');
  if (output !== 'null')
    await new Promise((resolve) => process.stdout.write(`${output}\n`, resolve));
  process.exit(0);
}

function serveWorker(decide, fail) {
  const lines = [];
  let partial = '';
  let ended = false;
  let busy = false;
  const pump = async () => {
    if (busy) return;
    busy = true;
    for (let line = lines.shift(); line !== undefined; line = lines.shift()) {
      if (line.trim() === '') continue;
      let request;
      try {
        request = JSON.parse(line);
      } catch (error) {
        fail('a request line is not JSON', error);
      }
      if (typeof request !== 'object' || request === null || !Number.isSafeInteger(request.id)) {
        fail('a request line is not {"id":N,"input":{...}} (spec §8)');
      }
      const output = await decide(request.input, `the input of request ${request.id}`);
      process.stdout.write(`{"id":${request.id},"output":${output}}\n`);
    }
    busy = false;
    if (ended) process.exit(0);
  };
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (text) => {
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
  return new Promise(() => {});
}
