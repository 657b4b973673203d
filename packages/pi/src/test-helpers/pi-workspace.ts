import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSessionLines } from '@soong-agent/test-utils';
import { piCli } from './pi-install.js';

/** This package's folder (its `dist` is what pi loads). */
export const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** The reference agent's CLI (`soong-agent`), for `hooks import`. */
export const SOONG_AGENT_CLI = fileURLToPath(
  new URL('../../../../apps/reference-agent/dist/cli.js', import.meta.url),
);

/** The line spec §14 puts in `~/.pi/agent/extensions/soong.ts`. */
export const EXTENSION_LINE = 'export { default } from "@soong-agent/pi";\n';

/** A temp HOME for pi (its models.json pointing at the fake model), an agent home and a project. */
export interface PiWorkspace {
  root: string;
  /** HOME of pi and of `soong-agent hooks import`. */
  home: string;
  /** `~/.pi/agent` */
  agentDir: string;
  /** The soong agent home (`~/.soong-agent` in `home`). */
  soongHome: string;
  /** pi's working directory, with a folder `victim/`. */
  project: string;
}

/** Makes a workspace whose pi talks to the OpenAI-compatible API at `baseUrl`. */
export function makePiWorkspace(baseUrl: string): PiWorkspace {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'soong-pi-')));
  const home = path.join(root, 'home');
  const agentDir = path.join(home, '.pi', 'agent');
  const soongHome = path.join(home, '.soong-agent');
  const project = path.join(root, 'project');
  fs.mkdirSync(agentDir, { recursive: true });
  fs.mkdirSync(soongHome, { recursive: true, mode: 0o700 });
  fs.mkdirSync(path.join(project, 'victim'), { recursive: true });
  fs.writeFileSync(path.join(project, 'victim', 'keep.txt'), 'precious\n');
  const provider = {
    baseUrl,
    api: 'openai-completions',
    apiKey: 'not-a-real-key',
    compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
    models: [{ id: 'fake-model' }],
  };
  fs.writeFileSync(
    path.join(agentDir, 'models.json'),
    `${JSON.stringify({ providers: { fake: provider } }, null, 2)}\n`,
  );
  return { root, home, agentDir, soongHome, project };
}

/**
 * Installs this package as spec §14 says: `~/.pi/agent/extensions/soong.ts` re-exporting
 * `@soong-agent/pi`, which resolves (from `~/.pi/agent/node_modules`) to this package's build.
 */
export function installExtension(workspace: PiWorkspace): void {
  const scope = path.join(workspace.agentDir, 'node_modules', '@soong-agent');
  fs.mkdirSync(scope, { recursive: true });
  fs.symlinkSync(PACKAGE_DIR, path.join(scope, 'pi'), 'dir');
  fs.mkdirSync(path.join(workspace.agentDir, 'extensions'), { recursive: true });
  fs.writeFileSync(path.join(workspace.agentDir, 'extensions', 'soong.ts'), EXTENSION_LINE);
}

/** What one pi run did. */
export interface PiRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  durationMs: number;
}

/**
 * Runs `pi -p --offline --provider fake --model fake-model PROMPT` in the project with the
 * workspace's HOME (and `env` on top of a small environment). An upper bound of two minutes only
 * ends a pi that hangs.
 */
export function runPi(
  workspace: PiWorkspace,
  prompt: string,
  options: { env?: Record<string, string>; args?: string[] } = {},
): Promise<PiRun> {
  const args = [
    piCli(),
    '-p',
    '--offline',
    '--provider',
    'fake',
    '--model',
    'fake-model',
    ...(options.args ?? []),
    prompt,
  ];
  // pi -p reads a piped stdin to its end: give it none.
  return spawnPi(workspace, args, { stdin: 'ignore', env: options.env });
}

// Starts pi (`node <cli> ARGS`) in the project with the workspace's HOME, gathers its output, and
// resolves when it exits (rejects when a signal ended it). `onStdout` sees the stdout so far.
function spawnPi(
  workspace: PiWorkspace,
  args: string[],
  options: {
    stdin: 'ignore' | 'pipe';
    env?: Record<string, string> | undefined;
    onStdout?: (stdout: string, child: ChildProcess) => void;
  },
): Promise<PiRun> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: workspace.project,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: workspace.home,
      NO_COLOR: '1',
      ...options.env,
    },
    stdio: [options.stdin, 'pipe', 'pipe'],
    timeout: 120_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    options.onStdout?.(stdout, child);
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === null) {
        reject(new Error(`pi ended by ${signal}\nstdout: ${stdout}\nstderr: ${stderr}`));
        return;
      }
      resolve({ exitCode: code, stdout, stderr, durationMs: performance.now() - started });
    });
  });
}

/**
 * Starts `pi --mode rpc` (pi's UI protocol on stdout: `extension_ui_request` lines for `notify` and
 * `setStatus`) in the project, ends its stdin once `done(stdout)` holds, and resolves when pi exits.
 */
export function runPiRpc(
  workspace: PiWorkspace,
  done: (stdout: string) => boolean,
  options: { env?: Record<string, string> } = {},
): Promise<PiRun> {
  return spawnPi(
    workspace,
    [piCli(), '--mode', 'rpc', '--offline', '--provider', 'fake', '--model', 'fake-model'],
    {
      stdin: 'pipe',
      env: options.env,
      // pi in RPC mode ends when its input ends.
      onStdout: (stdout, child) => {
        if (done(stdout)) child.stdin?.end();
      },
    },
  );
}

/** Runs `soong-agent ARGS` with the workspace's HOME; returns stdout, throws on a non-zero exit. */
export function runSoongAgent(workspace: PiWorkspace, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [SOONG_AGENT_CLI, ...args],
      {
        cwd: workspace.project,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: workspace.home, NO_COLOR: '1' },
        timeout: 60_000,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`soong-agent ${args.join(' ')}: ${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

/** The records of the workspace's only soong session, parsed. */
export function sessionRecords(workspace: PiWorkspace): { type: string; [key: string]: unknown }[] {
  return readSessionLines(workspace.soongHome);
}
