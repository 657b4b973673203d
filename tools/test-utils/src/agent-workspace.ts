import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from './temp-dir.js';

/** A throwaway agent setup: an agent home, a project and an OS home side by side under `root`. */
export interface AgentWorkspace {
  /** The temp root, removed after the test. */
  root: string;
  /** The agent home (`--home`, what `~/.soong-agent` is for a user): mode 0700. */
  home: string;
  /** The project directory. */
  projectDir: string;
  /** A directory to use as `HOME` of a spawned agent, never the real one. */
  osHome: string;
}

/** Options of {@link makeAgentWorkspace}. */
export interface AgentWorkspaceOptions {
  /** The temp dir's name prefix. @default 'soong-workspace-' */
  prefix?: string;
  /** `hooks` of a hooks.json written to the home (`{"version": 1, "hooks": …}`). @default none */
  hooks?: Record<string, unknown>;
  /** A config.toml written to the home. @default none */
  configToml?: string;
  /** More files (relative path → text) under the home, mode 0600. @default none */
  homeFiles?: Readonly<Record<string, string>>;
  /** Files (relative path → text) under the project. @default none */
  projectFiles?: Readonly<Record<string, string>>;
}

/**
 * Creates `<root>/home` (0700), `<root>/project` and `<root>/os-home` in a temp dir removed after
 * the test, with the files asked for: the layout the CLI, MCP and host tests share.
 */
export function makeAgentWorkspace(options: AgentWorkspaceOptions = {}): AgentWorkspace {
  const root = makeTempDir(options.prefix ?? 'soong-workspace-');
  const home = path.join(root, 'home');
  const projectDir = path.join(root, 'project');
  const osHome = path.join(root, 'os-home');
  fs.mkdirSync(home, { mode: 0o700 });
  fs.mkdirSync(projectDir);
  fs.mkdirSync(osHome);
  if (options.hooks !== undefined) writeHooksJson(home, options.hooks);
  if (options.configToml !== undefined) writePrivateFile(home, 'config.toml', options.configToml);
  for (const [relative, text] of Object.entries(options.homeFiles ?? {})) {
    writePrivateFile(home, relative, text);
  }
  for (const [relative, text] of Object.entries(options.projectFiles ?? {})) {
    const file = path.join(projectDir, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return { root, home, projectDir, osHome };
}

/** Writes `<home>/hooks.json` as `{"version": 1, "hooks": hooks}` (mode 0600); returns its path. */
export function writeHooksJson(home: string, hooks: Record<string, unknown>): string {
  return writePrivateFile(home, 'hooks.json', JSON.stringify({ version: 1, hooks }));
}

/** Writes an executable script (a hook command, a fake tool) at `file`; returns `file`. */
export function writeHookScript(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode: 0o755 });
  // writeFileSync keeps the mode of a file that exists: make the script executable either way.
  fs.chmodSync(file, 0o755);
  return file;
}

/** The record lines of the one session under `<home>/sessions` (throws when there is not exactly one). */
export function readSessionLines(home: string): { type: string; [key: string]: unknown }[] {
  const sessions = path.join(home, 'sessions');
  const ids = fs.existsSync(sessions) ? fs.readdirSync(sessions) : [];
  if (ids.length !== 1) throw new Error(`expected one session in ${sessions}, found ${ids.length}`);
  return fs
    .readFileSync(path.join(sessions, ids[0] as string, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

function writePrivateFile(home: string, relative: string, text: string): string {
  const file = path.join(home, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode: 0o600 });
  return file;
}
