import fs from 'node:fs';
import path from 'node:path';
import { RunnerError } from './runner-error.js';

/** What `execvp` searches when the child env has no PATH (glibc/libuv default). */
const FALLBACK_PATH = '/usr/bin:/bin';

/**
 * Check before spawning that `file` can be executed, the way the spawn will look it up:
 * a name without a slash is searched in the child's PATH, a relative path is taken from `cwd`.
 * Throws `SPAWN_FAILED` otherwise. Returns the path that was found.
 */
export function assertExecutable(file: string, cwd: string, childPath: string | undefined): string {
  if (file.includes('/')) {
    const candidate = path.resolve(cwd, file);
    const problem = executableProblem(candidate);
    if (problem !== undefined) throw spawnFailed(`${JSON.stringify(file)} ${problem}`);
    return candidate;
  }
  const searchPath = childPath ?? FALLBACK_PATH;
  for (const entry of searchPath.split(':')) {
    const candidate = path.resolve(cwd, entry === '' ? '.' : entry, file);
    if (executableProblem(candidate) === undefined) return candidate;
  }
  throw spawnFailed(
    `${JSON.stringify(file)} was not found as an executable file in the child's PATH ${JSON.stringify(searchPath)}: give an absolute path or add its directory to PATH`,
  );
}

/**
 * Why `candidate` cannot be executed, or undefined when it can. The kernel decides (access(2)):
 * `isexe`/`which` read only the mode bits and accept a file on a noexec mount, or one whose owner
 * lacks the x bit that group or others have, which exec then refuses.
 */
export function executableProblem(candidate: string): string | undefined {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(candidate, { throwIfNoEntry: false });
  } catch {
    // ENOTDIR, EACCES on the way, a name too long: not there for exec either.
  }
  if (stat === undefined) return 'does not exist';
  if (!stat.isFile()) return 'is not a file';
  // access(X_OK) succeeds for root on any file with one x bit, and the mode bits catch the rest.
  if ((stat.mode & 0o111) === 0) return 'is not executable (no x permission bit)';
  try {
    fs.accessSync(candidate, fs.constants.X_OK);
  } catch {
    return 'is not executable by this user';
  }
  return undefined;
}

function spawnFailed(message: string): RunnerError {
  return new RunnerError({ code: 'SPAWN_FAILED', message });
}
