import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type EventRecord, EventRecordSchema } from '@soong-agent/protocol';
import {
  makeAgentWorkspace,
  makeTempDir,
  type ProcessRun,
  startProcess,
} from '@soong-agent/test-utils';
import { expect } from 'vitest';

/** The built CLI (tests run it as a subprocess; turbo builds the app before its tests). */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** What a CLI run produced. */
export type CliRun = ProcessRun;

/** Env for the CLI: PATH, a temp HOME (never the real one) and no colour; plus `extra`. */
export function cliEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, NO_COLOR: '1', ...extra };
}

/** Starts `node dist/cli.js ...args`; `done` resolves when it exits. */
export function startCli(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
) {
  return startInTempHome(process.execPath, [CLI, ...args], options);
}

/** Runs a command line as a user would type it (`/bin/sh -c`), e.g. a hint the CLI printed. */
export function runShell(
  commandLine: string,
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CliRun> {
  return startInTempHome('/bin/sh', ['-c', commandLine], options).done;
}

// A temp HOME unless the caller gave an environment: never the real one.
function startInTempHome(
  file: string,
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> },
) {
  const env = options.env ?? cliEnv(makeTempDir('soong-agent-os-home-'));
  return startProcess(file, args, { ...options, env });
}

/** Runs `node dist/cli.js ...args` to completion. */
export function runCli(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CliRun> {
  return startCli(args, options).done;
}

/** Parses JSON-lines stdout as event records (throws on any line that is not one). */
export function parseRecords(stdout: string): EventRecord[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => EventRecordSchema.parse(JSON.parse(line)));
}

/** A temp workspace: `home/` and `project/` side by side, plus an OS home for HOME. */
export function makeWorkspace(
  files: { home?: Record<string, string>; project?: Record<string, string> } = {},
) {
  const { root, home, projectDir, osHome } = makeAgentWorkspace({
    prefix: 'soong-agent-e2e-',
    homeFiles: files.home ?? {},
    projectFiles: files.project ?? {},
  });
  return { root, home, project: projectDir, osHome, env: cliEnv(osHome) };
}

/** A scripted-model file in `dir` with the given turns; returns its path. */
export function writeScript(dir: string, turns: unknown[]): string {
  const file = path.join(dir, 'script.json');
  fs.writeFileSync(file, JSON.stringify({ turns }));
  return file;
}

/**
 * Runs `soong-agent run go --json` on a scripted model with `turns` in `workspace` (with `--yes`
 * unless `yes` is false), expects exit 0 and returns the event records.
 */
export async function runScriptedSession(
  workspace: { root: string; home: string; project: string; env: Record<string, string> },
  turns: unknown[],
  options: { yes?: boolean } = {},
): Promise<EventRecord[]> {
  const script = writeScript(workspace.root, turns);
  const result = await runCli(
    [
      'run',
      'go',
      '--model',
      `scripted:${script}`,
      ...(options.yes === false ? [] : ['--yes']),
      '--json',
      '--home',
      workspace.home,
      '--project',
      workspace.project,
    ],
    { env: workspace.env },
  );
  expect(result.code, result.stderr).toBe(0);
  return parseRecords(result.stdout);
}
