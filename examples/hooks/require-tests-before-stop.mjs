#!/usr/bin/env node
// require-tests-before-stop.mjs: a soong-agent Stop hook that keeps the model working until the
// project's tests pass.
//
// What it does
//   When the model wants to end its turn, runs the test command in `project_dir` (through
//   /bin/sh -c, stdin closed, with a time bound). Exit 0: allow. Otherwise: deny, with the exit code
//   and the last lines of the test output as the reason, which the agent hands to the model as a
//   user message. All test output goes to stderr (recorded in the session log as hook_log); stdout
//   carries only the decision.
//   Loop guard: when `stop_hook_active` is true and `prevented_count` >= 3 (Stop was already
//   prevented 3 times in this loop, by this hook or another), it allows without running the tests
//   and says why in `logs`, so a model that cannot fix the tests is not trapped.
//   When the command runs a package.json test script (npm test, npm run test, pnpm test, yarn test,
//   bun run test), a project with no package.json or no "test" script (or npm init's placeholder
//   `echo "Error: no test specified" && exit 1`) is allowed with a `logs` note: this hook lives in
//   the agent home and runs for every project.
//
// Usage
//   require-tests-before-stop.mjs [--timeout SECONDS] [--max-denials N] [COMMAND]
//     COMMAND        the test command, one shell string            default: npm test --silent
//     --timeout      seconds before the tests are stopped (deny)   default: 120
//     --max-denials  prevented stops after which it lets go        default: 3
//   The command is an argument in hooks.json, not an environment variable: it is part of your
//   configuration, visible in `soong-agent hooks list`, and nothing in the project can change it.
//
// Events
//   Stop (on any other event it allows and does nothing).
//
// Configure (hooks.json in the agent home; needs node >= 18 on PATH; no dependencies)
//   "Stop": [
//     { "hooks": [ { "type": "command", "name": "require-tests-before-stop",
//                    "command": "~/.soong-agent/hooks/require-tests-before-stop.mjs --timeout 150 'npm test --silent'",
//                    "timeout": 180 } ] }
//   ]
//   Keep the hook's `timeout` above `--timeout` so that a slow suite ends in a deny that says so,
//   not in a killed hook. Leave `on_failure` at "ignore": if node itself is broken, do not trap the
//   model.
//
// Limits
//   - It runs the whole suite at every stop; point COMMAND at a faster subset if that is too slow.
//   - The agent passes only allowlisted environment variables (PATH, HOME, ...) to hooks; a suite
//     that needs more must get it from a file, or the variable must be added to
//     `[runner] env_allowlist` in config.toml.
//   - On timeout it walks the process tree under the test command (Linux: /proc; elsewhere:
//     `ps -A -o pid=,ppid=,pgid=`) and sends SIGTERM to every process group it finds there, the
//     command's own and those its descendants started (turbo, for one, runs each task in a group of
//     its own), then SIGKILL 2 s later or when the command exits, walking again first (also from
//     what the first walk found, whose parent may have died since). A descendant that had already
//     left the tree before a walk (a double fork, a daemon: its parent exited and it was
//     reparented to init) cannot be found, so it is beyond its reach. When the command ends by
//     itself, only its own process group is killed (whatever still runs in it).

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const HOOK_NAME = 'require-tests-before-stop';
const DEFAULT_COMMAND = 'npm test --silent';
const DEFAULT_TIMEOUT_SECONDS = 120;
const DEFAULT_MAX_DENIALS = 3;
const PACKAGE_SCRIPT_COMMAND = /^(npm|pnpm|yarn|bun)( run)? test(\s|$)/;
const NPM_INIT_PLACEHOLDER = 'echo "Error: no test specified" && exit 1';
const KILL_GRACE_MS = 2000;
// After the shell exits, how long to keep reading output that a leftover background process holds.
const DRAIN_MS = 100;
const KEPT_OUTPUT_BYTES = 64 * 1024;
const REASON_TAIL_LINES = 30;
const REASON_TAIL_CHARS = 2000;
const ANSI_ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g');

function answer(output) {
  fs.writeSync(1, `${JSON.stringify(output)}\n`);
  process.exit(0);
}

function fail(message) {
  process.stderr.write(`${HOOK_NAME}: ${message}\n`);
  process.exit(1);
}

function parseOptions(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { timeout: { type: 'string' }, 'max-denials': { type: 'string' } },
    });
  } catch (error) {
    fail(
      `${error.message}\nusage: ${HOOK_NAME}.mjs [--timeout SECONDS] [--max-denials N] [COMMAND]`,
    );
  }
  const timeoutSeconds = Number(parsed.values.timeout ?? DEFAULT_TIMEOUT_SECONDS);
  const maxDenials = Number(parsed.values['max-denials'] ?? DEFAULT_MAX_DENIALS);
  if (!(timeoutSeconds > 0)) {
    fail(`--timeout must be a number of seconds > 0, got ${parsed.values.timeout}`);
  }
  if (!Number.isInteger(maxDenials) || maxDenials < 1) {
    fail(`--max-denials must be an integer >= 1, got ${parsed.values['max-denials']}`);
  }
  if (parsed.positionals.length > 1) {
    fail('give the test command as one argument (quote it in hooks.json)');
  }
  const command = (parsed.positionals[0] ?? DEFAULT_COMMAND).trim();
  if (command === '') fail('the test command is empty');
  return { command, timeoutSeconds, maxDenials };
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Why a package.json test script has nothing to run in `projectDir`, or undefined when it has. */
function missingTestScript(projectDir) {
  const manifestPath = path.join(projectDir, 'package.json');
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return `no package.json in ${projectDir}`;
    return undefined; // let npm report it: a broken package.json is something to fix
  }
  const script = manifest?.scripts?.test;
  if (typeof script !== 'string' || script.trim() === '')
    return `no "test" script in ${manifestPath}`;
  if (script.trim() === NPM_INIT_PLACEHOLDER)
    return `the "test" script in ${manifestPath} is npm init's placeholder`;
  return undefined;
}

/** The live processes now: pid -> { ppid, pgid } (Linux: /proc; elsewhere: ps). */
function processTable() {
  const table = new Map();
  if (process.platform === 'linux') {
    let names = [];
    try {
      names = fs.readdirSync('/proc');
    } catch {
      return table;
    }
    for (const name of names) {
      if (!/^\d+$/.test(name)) continue;
      let stat;
      try {
        stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      } catch {
        continue; // gone since the listing
      }
      // The command name is in parentheses and may hold anything: the fields follow the last ')'.
      const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z' || state === 'X') continue; // a zombie has nothing left to kill
      table.set(Number(name), { ppid: Number(ppid), pgid: Number(pgid) });
    }
    return table;
  }
  const listed = spawnSync('ps', ['-A', '-o', 'pid=,ppid=,pgid='], { encoding: 'utf8' });
  for (const line of (listed.stdout ?? '').split('\n')) {
    const [pid, ppid, pgid] = line.trim().split(/\s+/).map(Number);
    if (pid > 0) table.set(pid, { ppid, pgid });
  }
  return table;
}

function runTests(command, cwd, timeoutMs) {
  return new Promise((resolve) => {
    const started = Date.now();
    const kept = [];
    let keptBytes = 0;
    let timedOut = false;
    let exit;
    let settled = false;
    let timeoutTimer;
    let graceTimer;
    let drainTimer;

    const child = spawn('/bin/sh', ['-c', command], {
      cwd,
      detached: true, // its own process group, so that a timeout reaches everything it started
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killGroup = (group, signal) => {
      try {
        process.kill(-group, signal);
      } catch {
        // the group is gone already
      }
    };
    // Test runners such as turbo start tasks in process groups of their own, which a kill of the
    // command's group misses. Node cannot make this hook a subreaper, so before each kill it walks
    // the tree under the command and remembers every process and group it met: a process whose
    // parent was killed by the previous signal is reparented, and only this memory still finds it
    // (and its own children) at the next walk.
    const trackedPids = new Map(); // pid -> pgid when it was found
    const trackedGroups = new Set();
    const killTree = (signal) => {
      const table = processTable();
      const children = new Map();
      for (const [pid, entry] of table) {
        if (!children.has(entry.ppid)) children.set(entry.ppid, []);
        children.get(entry.ppid).push(pid);
      }
      // A remembered pid counts only while it is still in the group it was found in (not reused).
      const pending = [child.pid];
      for (const [pid, pgid] of trackedPids) if (table.get(pid)?.pgid === pgid) pending.push(pid);
      const seen = new Set();
      while (pending.length > 0) {
        const pid = pending.pop();
        if (seen.has(pid)) continue;
        seen.add(pid);
        const entry = table.get(pid);
        if (entry !== undefined) {
          trackedPids.set(pid, entry.pgid);
          trackedGroups.add(entry.pgid);
        }
        pending.push(...(children.get(pid) ?? []));
      }
      trackedGroups.add(child.pid);
      const ownGroup = table.get(process.pid)?.pgid;
      for (const group of trackedGroups) {
        if (group > 1 && group !== ownGroup) killGroup(group, signal);
      }
    };
    const keep = (chunk) => {
      process.stderr.write(chunk);
      kept.push(chunk);
      keptBytes += chunk.length;
      while (keptBytes - kept[0].length >= KEPT_OUTPUT_BYTES) keptBytes -= kept.shift().length;
    };
    const settle = (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      clearTimeout(graceTimer);
      clearTimeout(drainTimer);
      // Nothing it started outlives the hook: after a timeout, every group the walks found.
      if (child.pid !== undefined) {
        if (timedOut) killTree('SIGKILL');
        else killGroup(child.pid, 'SIGKILL');
      }
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({
        error,
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        durationMs: Date.now() - started,
        output: Buffer.concat(kept).toString('utf8'),
      });
    };
    timeoutTimer = setTimeout(() => {
      timedOut = true;
      killTree('SIGTERM');
      graceTimer = setTimeout(() => killTree('SIGKILL'), KILL_GRACE_MS);
    }, timeoutMs);

    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => settle(error));
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      drainTimer = setTimeout(() => settle(), DRAIN_MS);
    });
    child.on('close', () => settle());
  });
}

function tail(output) {
  const lines = output
    .replace(ANSI_ESCAPE, '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
  let text = lines.slice(-REASON_TAIL_LINES).join('\n');
  if (text.length > REASON_TAIL_CHARS) text = `...${text.slice(-REASON_TAIL_CHARS)}`;
  return text;
}

async function main() {
  const text = await readStdin(); // all of it first, whatever happens next
  const options = parseOptions(process.argv.slice(2));
  let input;
  try {
    input = JSON.parse(text);
  } catch (error) {
    fail(`stdin is not a hook input: ${error.message}`);
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    fail('stdin is not a hook input (a JSON object was expected)');
  }
  if (input.event !== 'Stop') {
    answer({ decision: 'allow', logs: [`${HOOK_NAME} acts on Stop only, not on ${input.event}`] });
  }

  const preventedCount = Number.isInteger(input.prevented_count) ? input.prevented_count : 0;
  if (input.stop_hook_active === true && preventedCount >= options.maxDenials) {
    answer({
      decision: 'allow',
      logs: [
        `${HOOK_NAME}: Stop was already prevented ${preventedCount} times in this loop ` +
          `(limit ${options.maxDenials}); letting the model stop without running the tests`,
      ],
      metadata: { prevented_count: preventedCount, max_denials: options.maxDenials },
    });
  }

  const projectDir =
    typeof input.project_dir === 'string' && path.isAbsolute(input.project_dir)
      ? input.project_dir
      : process.cwd();
  if (PACKAGE_SCRIPT_COMMAND.test(options.command)) {
    const missing = missingTestScript(projectDir);
    if (missing !== undefined) {
      answer({ decision: 'allow', logs: [`${HOOK_NAME}: ${missing}; nothing to run`] });
    }
  }

  const run = await runTests(options.command, projectDir, options.timeoutSeconds * 1000);
  const metadata = {
    command: options.command,
    exit_code: run.exitCode,
    signal: run.signal,
    timed_out: run.timedOut,
    duration_ms: run.durationMs,
  };
  if (run.error !== undefined) {
    answer({
      decision: 'deny',
      reason: `${HOOK_NAME}: could not run the tests (\`${options.command}\` in ${projectDir}): ${run.error.message}`,
      metadata,
    });
  }
  if (!run.timedOut && run.exitCode === 0) {
    answer({
      decision: 'allow',
      logs: [`${HOOK_NAME}: tests passed in ${run.durationMs} ms`],
      metadata,
    });
  }
  const what = run.timedOut
    ? `the tests did not finish within ${options.timeoutSeconds} s (\`${options.command}\`)`
    : `the tests fail (\`${options.command}\` exited with ${
        run.exitCode === null ? `signal ${run.signal}` : `code ${run.exitCode}`
      })`;
  const lastLines = tail(run.output);
  answer({
    decision: 'deny',
    reason:
      `${HOOK_NAME}: ${what}. Fix them and run the tests again before finishing.` +
      (lastLines === ''
        ? ' The test command printed nothing.'
        : `\nLast lines of the test output:\n${lastLines}`),
    metadata,
  });
}

main().catch((error) => fail(error?.stack ?? String(error)));
