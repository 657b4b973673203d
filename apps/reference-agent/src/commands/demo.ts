import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommonOptions } from '../common-options.js';
import { CliError } from '../errors.js';
import { selfCommand, shellQuote } from '../ui/self-command.js';
import { runWithPresentation } from './run.js';

/** The bundled demo: `home/` (hooks.json, config.toml, hooks, session.json) and `project/`. */
export const DEMO_DIR = fileURLToPath(new URL('../../demo/', import.meta.url));
/** The prompt of the demo session. */
export const DEMO_PROMPT = 'Tidy up the project and make sure the tests pass.';

function ensureEmptyTarget(dir: string, flag: string): void {
  if (existsSync(dir) && (!statSync(dir).isDirectory() || readdirSync(dir).length > 0)) {
    throw new CliError({
      code: 'USAGE',
      message: `demo ${flag} ${dir} must be an empty or new directory (the demo copies its files there)`,
    });
  }
}

// Group/other-writable config would only add warnings to the demo; keep the copy private.
function makePrivate(dir: string): void {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) makePrivate(full);
    else if (entry.isFile()) chmodSync(full, 0o600);
  }
}

/** Options of `soong-agent demo`. */
export interface DemoCommandOptions extends CommonOptions {
  /** `--json`: event records as JSON lines on stdout instead of the timeline. @default false */
  json?: boolean;
  /** `--keep`: keep the temp dirs the demo made (removed at the end otherwise). @default false */
  keep?: boolean;
}

/**
 * `soong-agent demo`: copies the bundled home and project to a fresh temp dir (or to `--home` /
 * `--project` when given, which must be empty) and runs one scripted session there. It never reads
 * or writes the user's own agent home. Permissions are fixed by the demo's config.toml
 * (`write = "deny"`), and it never prompts, so it runs the same on a TTY and in CI. The temp dir is
 * removed at the end unless `--keep`; dirs the user named are always kept.
 */
export async function demoAction(options: DemoCommandOptions): Promise<number> {
  let base: string | undefined;
  const temp = () => {
    base ??= mkdtempSync(path.join(os.tmpdir(), 'soong-agent-demo-'));
    return base;
  };
  try {
    const home = path.resolve(options.home ?? path.join(temp(), 'home'));
    const project = path.resolve(options.project ?? path.join(temp(), 'project'));
    ensureEmptyTarget(home, '--home');
    ensureEmptyTarget(project, '--project');
    cpSync(path.join(DEMO_DIR, 'home'), home, { recursive: true });
    cpSync(path.join(DEMO_DIR, 'project'), project, { recursive: true });
    makePrivate(home);
    const { exitCode, outcome } = await runWithPresentation(
      DEMO_PROMPT,
      { home, project, ...(options.json === true ? { json: true } : {}) },
      { interactive: false },
    );
    if (options.json !== true) {
      const homeKept = options.home !== undefined || options.keep === true;
      process.stderr.write(
        homeKept
          ? `\nevent log: ${outcome.eventLog}\ninspect it: ${selfCommand()} events --home ${shellQuote(home)}\n` +
              `audit log written by the PostToolUse hook: ${path.join(home, 'audit.log')}\n`
          : `\nthe demo's temp dir ${base} was removed; to inspect its event log, run it as ${selfCommand()} demo --keep\n`,
      );
    }
    return exitCode;
  } finally {
    if (base !== undefined && options.keep !== true) rmSync(base, { recursive: true, force: true });
  }
}
