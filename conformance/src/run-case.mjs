// Runs one case on one side (the real agent, or soong-agent with the same hook imported) and
// observes what happened: did the tool run, what the model was told, how many model turns.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from '@soong-agent/runner';
import { startModelServer } from './model-server.mjs';

/** The scripted hook every case runs. */
const HOOK_SCRIPT = fileURLToPath(new URL('../hooks/scripted-hook.mjs', import.meta.url));
/** The reference agent's CLI, as built in the workspace. */
export const SOONG_CLI = fileURLToPath(
  new URL('../node_modules/@soong-agent/reference-agent/dist/cli.js', import.meta.url),
);
/** The prompt of every case (it names no token, so a token the model sees came from a hook). */
const PROMPT = 'Run the conformance command, then stop.';
/** The bound of one agent run: far above a normal run (2-15 s), so only a hang reaches it. */
const RUN_TIMEOUT_MS = 180_000;

/**
 * What one side did.
 * @typedef {object} Observation
 * @property {boolean} ran the tool ran (its marker file exists)
 * @property {boolean} rewritten the rewritten command ran instead ({ALT} exists)
 * @property {boolean} toldReason a model request carried the case's reason token
 * @property {boolean} toldContext a model request carried the case's context token
 * @property {number} hookCalls how many times the hook ran
 * @property {number} turns model requests of the main loop (those that offer tools)
 * @property {number | null} exitCode
 * @property {boolean} timedOut
 * @property {number} durationMs
 * @property {string[]} inputKeys the keys of the hook's first stdin (nested objects as `a.b`):
 *   shown, not compared (a dialect's encoder against the agent's)
 * @property {string} [importNote] ours: what `hooks import` said when it did not convert the hook
 */

/** The keys of a JSON object, one level of nesting spelled `parent.key`, sorted. */
function keysOf(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return ['(not JSON)'];
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return ['(not an object)'];
  const keys = [];
  for (const [key, inner] of Object.entries(value)) {
    keys.push(key);
    if (typeof inner === 'object' && inner !== null && !Array.isArray(inner))
      for (const innerKey of Object.keys(inner)) keys.push(`${key}.${innerKey}`);
  }
  return keys.sort();
}

/** Replaces the case's placeholders in a hook spec string. */
function fill(text, tokens) {
  return text
    ?.replaceAll('{REASON}', tokens.reason)
    .replaceAll('{CONTEXT}', tokens.context)
    .replaceAll('{ALT}', tokens.alt);
}

/** Prepares a side's dirs, hook spec and the hook entry every agent config is written from. */
function prepareSide(dir, testCase, spec, tokens) {
  const home = join(dir, 'home');
  const project = join(dir, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const log = join(dir, 'hook-calls.jsonl');
  const specFile = join(dir, 'hook-spec.json');
  writeFileSync(
    specFile,
    JSON.stringify({
      ...spec,
      stdout: fill(spec.stdout, tokens),
      stderr: fill(spec.stderr, tokens),
      log,
    }),
  );
  const marker = join(project, 'marker');
  /** @type {import('./agents.mjs').HookEntry} */
  const entry = {
    event: testCase.event,
    command: `node ${HOOK_SCRIPT} ${specFile}`,
    ...(testCase.event === 'PreToolUse' || testCase.event === 'PostToolUse'
      ? { matcher: testCase.matcher ?? 'shell' }
      : {}),
    ...(testCase.timeoutSec === undefined ? {} : { timeoutSec: testCase.timeoutSec }),
  };
  return {
    home,
    project,
    log,
    entry,
    marker,
    // A failing command still leaves its marker: `ran` stays "the tool ran".
    shellCommand: testCase.toolFails === true ? `touch ${marker}; exit 3` : `touch ${marker}`,
    alt: join(project, 'alt-marker'),
  };
}

/** Reads what happened after a run. */
function observe(side, server, tokens, result) {
  const lines = existsSync(side.log)
    ? readFileSync(side.log, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
    : [];
  const turns = server.requests.filter((request) => {
    const body = request.body;
    if (request.wire === undefined || typeof body !== 'object' || body === null) return false;
    const tools = body.tools ?? [];
    return Array.isArray(tools) && tools.length > 0;
  }).length;
  return {
    ran: existsSync(side.marker),
    rewritten: existsSync(side.alt),
    toldReason: server.told(tokens.reason),
    toldContext: server.told(tokens.context),
    hookCalls: lines.length,
    turns,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    durationMs: Math.round(result.durationMs),
    inputKeys: lines.length === 0 ? [] : keysOf(JSON.parse(lines[0]).input),
  };
}

/**
 * Runs argv with env in cwd, bounded (`timeoutMs`, default 180 s), its process group killed at the
 * end (the runner does); writes its stdout and stderr to `outputFile`.
 */
export async function runBounded(argv, env, cwd, outputFile, { timeoutMs = RUN_TIMEOUT_MS } = {}) {
  const result = await runCommand({
    command: argv,
    cwd,
    envAllowlist: ['PATH', 'LANG', 'TZ', 'TMPDIR'],
    env: { ...env, NO_COLOR: '1', CI: 'true' },
    timeoutMs,
    killGraceMs: 2_000,
    maxOutputBytes: 4_194_304,
  });
  writeFileSync(outputFile, `${result.stdout}\n--- stderr ---\n${result.stderr}`);
  return result;
}

/**
 * The real agent, with the case's hook in its own config.
 * @param {import('./agents.mjs').Agent} agent
 * @param {string} bin
 */
export async function runReal(agent, bin, testCase, spec, dir, tokens) {
  const side = prepareSide(dir, testCase, spec, tokens);
  agent.writeHooks(side.home, [side.entry]);
  const server = await startModelServer({
    call: (tools) => agent.shellCall(tools, side.shellCommand),
  });
  try {
    const { argv, env } = agent.command({
      bin,
      home: side.home,
      project: side.project,
      url: server.url,
      prompt: PROMPT,
    });
    const result = await runBounded(argv, env, side.project, join(dir, 'agent-output.txt'));
    writeFileSync(join(dir, 'model-requests.json'), JSON.stringify(server.requests, null, 1));
    return observe(side, server, tokens, result);
  } finally {
    await server.close();
  }
}

/**
 * Ours: the same hook written into the agent's config file, imported with `soong-agent hooks import
 * --from <agent>` into a soong home, then `soong-agent run` against the same kind of fake model.
 * @param {import('./agents.mjs').Agent} agent
 * @param {{ deliverContext: boolean }} options
 */
export async function runOurs(agent, testCase, spec, dir, tokens, options) {
  const side = prepareSide(dir, testCase, spec, tokens);
  const source = agent.writeHooks(join(dir, 'source'), [side.entry]);
  const soongHome = join(dir, 'soong-home');
  mkdirSync(soongHome, { recursive: true });
  if (options.deliverContext) {
    writeFileSync(join(soongHome, 'config.toml'), '[hooks]\ndeliver_context = true\n');
  }
  const env = { HOME: side.home };
  const imported = await runBounded(
    [
      'node',
      SOONG_CLI,
      'hooks',
      'import',
      '--from',
      agent.name,
      source,
      '--write',
      '--home',
      soongHome,
    ],
    env,
    side.project,
    join(dir, 'import-output.txt'),
  );
  // Exit 2 = nothing converted (a refusal: the run goes on without the hook, as a user's would);
  // anything else but 0 is the import itself failing, which no comparison can stand on.
  if (imported.exitCode !== 0 && imported.exitCode !== 2) {
    const line = imported.stderr.split('\n').find((text) => /Error/.test(text)) ?? '';
    throw new Error(`hooks import failed (exit ${imported.exitCode}): ${line.trim()}`);
  }
  const server = await startModelServer({
    call: () => ({ name: 'bash', input: { command: side.shellCommand } }),
  });
  try {
    const result = await runBounded(
      [
        'node',
        SOONG_CLI,
        'run',
        PROMPT,
        '--model',
        'anthropic:conformance-model',
        '--base-url',
        server.url,
        '--yes',
        '--home',
        soongHome,
        '--project',
        side.project,
      ],
      { ...env, ANTHROPIC_API_KEY: 'sk-ant-conformance' },
      side.project,
      join(dir, 'agent-output.txt'),
    );
    writeFileSync(join(dir, 'model-requests.json'), JSON.stringify(server.requests, null, 1));
    const observation = observe(side, server, tokens, result);
    if (imported.exitCode !== 0) {
      const refusal = imported.stderr.split('\n').find((line) => /refus|cannot|not /i.test(line));
      observation.importNote = `import exit ${imported.exitCode}: ${refusal ?? imported.stderr.trim().split('\n')[0]}`;
    }
    return observation;
  } finally {
    await server.close();
  }
}
