import fs from 'node:fs';
import path from 'node:path';
import { gitRootHint, isPathInside } from '@soong-agent/paths';
import { RunnerError } from './runner-error.js';

/**
 * Resolve and check the working dir: it must exist, be a searchable directory and, when
 * `allowedRoots` is given, its real path must lie inside the real path of one of them.
 * Returns the absolute path to spawn in: the real path when roots were checked.
 */
export function resolveWorkingDir(
  cwd: string | undefined,
  allowedRoots: readonly string[] | undefined,
): string {
  const dir = path.resolve(cwd ?? process.cwd());
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch (cause) {
    throw cwdInvalid(
      `cwd ${JSON.stringify(dir)} does not exist: create it or pass another cwd`,
      cause,
    );
  }
  if (!stat.isDirectory()) {
    throw cwdInvalid(`cwd ${JSON.stringify(dir)} is not a directory: pass a directory`);
  }
  try {
    fs.accessSync(dir, fs.constants.X_OK);
  } catch (cause) {
    throw cwdInvalid(`cwd ${JSON.stringify(dir)} cannot be entered (no search permission)`, cause);
  }
  if (allowedRoots === undefined) return dir;

  let real: string;
  try {
    real = fs.realpathSync(dir);
  } catch (cause) {
    throw cwdInvalid(`cwd ${JSON.stringify(dir)} cannot be resolved to a real path`, cause);
  }
  const realRoots: string[] = [];
  for (const root of allowedRoots) {
    const absolute = path.resolve(root);
    let realRoot: string;
    try {
      realRoot = fs.realpathSync(absolute);
    } catch {
      // A root that does not exist contains nothing that exists.
      continue;
    }
    realRoots.push(realRoot);
    // Spawn in the checked real path: a symlink swapped after the check cannot redirect the run.
    if (isPathInside(real, realRoot)) return real;
  }
  const shown =
    dir === real
      ? JSON.stringify(dir)
      : `${JSON.stringify(dir)} (real path ${JSON.stringify(real)})`;
  // The first root is the project dir for every caller that has one (spec §3): a repository
  // above it is what the user most likely meant. On a line of its own, so that a one-line view
  // that shortens the message keeps the hint.
  const first = allowedRoots[0];
  const hint = first === undefined ? undefined : gitRootHint({ target: real, projectDir: first });
  throw cwdInvalid(
    `cwd ${shown} is outside allowedRoots ${JSON.stringify(realRoots.length > 0 ? realRoots : allowedRoots)}: run the command inside one of them${hint === undefined ? '' : `\nhint: ${hint}`}`,
  );
}

function cwdInvalid(message: string, cause?: unknown): RunnerError {
  return new RunnerError({ code: 'CWD_INVALID', message, cause });
}
