import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOONG_CLI = path.join(PACKAGE_DIR, '../../apps/reference-agent/dist/cli.js');

/** A scratch world for one OpenCode run: its own HOME and XDG dirs, a project, a soong home. */
export interface OpencodeWorld {
  root: string;
  /** The project OpenCode runs in (holds `victim/file`). */
  project: string;
  /** `SOONG_AGENT_HOME`. */
  soongHome: string;
  /** The environment OpenCode runs with (nothing of this process's). */
  env: Record<string, string>;
}

/**
 * A project whose `opencode.json` points at the fake model, with `victim/file` in it and, when
 * `plugin`, the plugin installed as the README says: `.opencode/plugin/soong.ts` re-exporting
 * `SoongHooks` from `@soong-agent/opencode`, the package in `.opencode/node_modules` (a link to the
 * built package) and listed in `.opencode/package.json` and its lock, so that OpenCode finds its
 * dependencies installed and runs no `npm install` (the same for the global config dir).
 */
export function makeWorld(options: { baseURL: string; plugin: boolean }): OpencodeWorld {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'soong-opencode-')));
  const project = path.join(root, 'project');
  const home = path.join(root, 'home');
  const soongHome = path.join(root, 'soong');
  fs.mkdirSync(path.join(project, 'victim'), { recursive: true });
  fs.writeFileSync(path.join(project, 'victim', 'file'), 'precious\n');
  fs.mkdirSync(soongHome, { recursive: true });
  fs.writeFileSync(
    path.join(project, 'opencode.json'),
    JSON.stringify(
      {
        $schema: 'https://opencode.ai/config.json',
        provider: {
          fake: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Fake',
            options: { baseURL: options.baseURL, apiKey: 'none' },
            models: { m: { name: 'm', tool_call: true } },
          },
        },
        model: 'fake/m',
        small_model: 'fake/m',
        permission: { bash: 'allow', edit: 'allow', webfetch: 'allow' },
        autoupdate: false,
        snapshot: false,
        share: 'disabled',
      },
      null,
      2,
    ),
  );
  const dependencies: Record<string, string> = { '@opencode-ai/plugin': '1.18.33' };
  if (options.plugin) {
    dependencies['@soong-agent/opencode'] = '0.0.0';
    const plugins = path.join(project, '.opencode', 'plugin');
    fs.mkdirSync(plugins, { recursive: true });
    fs.writeFileSync(
      path.join(plugins, 'soong.ts'),
      'export { SoongHooks } from "@soong-agent/opencode";\n',
    );
    const scope = path.join(project, '.opencode', 'node_modules', '@soong-agent');
    fs.mkdirSync(scope, { recursive: true });
    fs.symlinkSync(inject('pluginPackageDir'), path.join(scope, 'opencode'));
  }
  markInstalled(path.join(project, '.opencode'), dependencies);
  markInstalled(path.join(home, '.config', 'opencode'), { '@opencode-ai/plugin': '1.18.33' });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    SOONG_AGENT_HOME: soongHome,
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  };
  return { root, project, soongHome, env };
}

// OpenCode runs `npm install` in a config dir unless node_modules exists and every dependency of
// package.json is in package-lock.json.
function markInstalled(dir: string, dependencies: Record<string, string>): void {
  fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ dependencies }));
  fs.writeFileSync(
    path.join(dir, 'package-lock.json'),
    JSON.stringify({ packages: { '': { dependencies } } }),
  );
}

/**
 * A Claude Code user's guard, `~/.claude/settings.json` with a PreToolUse `Bash` hook that denies
 * `rm -rf` (exit 2, reason on stderr), imported with `soong-agent hooks import --from claude --write`.
 */
export function importClaudeGuard(world: OpencodeWorld): void {
  const claudeHome = path.join(world.root, 'claude-user');
  const dir = path.join(claudeHome, '.claude');
  fs.mkdirSync(dir, { recursive: true });
  const guard = path.join(dir, 'no-rm-rf.sh');
  fs.writeFileSync(
    guard,
    [
      '#!/bin/sh',
      'command=$(cat)',
      'case "$command" in',
      `  *'rm -rf'*) echo "rm -rf is blocked by the Claude Code guard" >&2; exit 2 ;;`,
      'esac',
      'exit 0',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  fs.writeFileSync(
    path.join(dir, 'settings.json'),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] },
    }),
  );
  execFileSync(process.execPath, [SOONG_CLI, 'hooks', 'import', '--from', 'claude', '--write'], {
    env: { ...process.env, HOME: claudeHome, SOONG_AGENT_HOME: world.soongHome },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** Adds rules to the world's hooks.json (created when absent). */
export function addHooks(world: OpencodeWorld, hooks: Record<string, unknown[]>): void {
  const file = path.join(world.soongHome, 'hooks.json');
  const current = fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, 'utf8')) as {
        version: number;
        hooks: Record<string, unknown[]>;
      })
    : { version: 1, hooks: {} };
  for (const [event, rules] of Object.entries(hooks))
    current.hooks[event] = [...(current.hooks[event] ?? []), ...rules];
  fs.writeFileSync(file, JSON.stringify(current, null, 2));
}

/** What one OpenCode process did. */
export interface OpencodeRun {
  code: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

/** Bound for one OpenCode process: generous, it must end (a hang is a failure, not a wait). */
const RUN_BOUND_MS = 150_000;

/** `opencode <args>` in the project, to its end. */
export function runOpencode(world: OpencodeWorld, args: readonly string[]): Promise<OpencodeRun> {
  const child = startOpencode(world, args);
  return finished(child);
}

const started = new Set<ChildProcess>();

/** SIGKILL to every OpenCode a test started that is still running (for afterAll). */
export function killAllOpencode(): void {
  for (const child of started) killGroup(child);
  started.clear();
}

/** `opencode <args>` in the project, running on. */
export function startOpencode(world: OpencodeWorld, args: readonly string[]): ChildProcess {
  const child = spawn(inject('opencodeBin'), [...args, '--print-logs'], {
    cwd: world.project,
    env: world.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  child.once('close', () => started.delete(child));
  return child;
}

/** Resolves when `child` ends (its group is SIGKILLed past the bound). */
export function finished(child: ChildProcess): Promise<OpencodeRun> {
  const started = performance.now();
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const bound = setTimeout(() => killGroup(child), RUN_BOUND_MS);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(bound);
      killGroup(child);
      resolve({ code, stdout, stderr, durationMs: Math.round(performance.now() - started) });
    });
  });
}

/** SIGKILL to the whole group of `child` (OpenCode and whatever it started). */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // gone
  }
}

/** The records of the world's soong sessions, in order, one array per session. */
export function eventRecords(world: OpencodeWorld): Record<string, unknown>[][] {
  const sessions = path.join(world.soongHome, 'sessions');
  if (!fs.existsSync(sessions)) return [];
  return fs
    .readdirSync(sessions)
    .sort()
    .map((id) =>
      fs
        .readFileSync(path.join(sessions, id, 'events.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    );
}
