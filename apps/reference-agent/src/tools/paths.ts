import { statSync } from 'node:fs';
import path from 'node:path';
import {
  gitRootHint,
  isPathInside,
  type RealpathMemo,
  realPathOfLongestAncestor,
} from '@soong-agent/paths';

/** Resolves a tool's `path` input against the project dir. */
export function resolveToolPath(projectDir: string, input: string): string {
  return path.resolve(projectDir, input);
}

/**
 * Why a write tool must not touch `target`, or undefined when it may: the agent cannot rewrite its
 * own hooks (any path inside the agent home), and writes stay inside the project dir. Both paths are
 * compared as written and with symlinks resolved (dangling links followed), by the same functions
 * as a hooks.json `path_prefix` (`@soong-agent/paths`), so a symlink cannot dodge the check and the
 * refusal cannot drift from what a path rule matches.
 */
export function writeRefusal(
  target: string,
  context: { projectDir: string; agentHome: string },
): string | undefined {
  const memo: RealpathMemo = new Map();
  const absolute = path.resolve(target);
  const agentHome = path.resolve(context.agentHome);
  const projectDir = path.resolve(context.projectDir);
  const forms = [absolute, realPathOfLongestAncestor(absolute, memo)];
  const homes = [agentHome, realPathOfLongestAncestor(agentHome, memo)];
  if (forms.some((form) => homes.some((home) => isPathInside(form, home)))) {
    return `refused: ${target} is inside the agent home (${context.agentHome}); the agent cannot rewrite its own configuration or hooks`;
  }
  const projects = [projectDir, realPathOfLongestAncestor(projectDir, memo)];
  const resolved = forms[1] as string;
  if (!projects.some((project) => isPathInside(resolved, project))) {
    const hint = gitRootHint({ target: absolute, projectDir });
    return `refused: ${target} is outside the project dir (${context.projectDir}); write tools only write inside the project${hint === undefined ? '' : `\nhint: ${hint}`}`;
  }
  // A hard link is the same file under another name (e.g. one made by `bash` to the agent's
  // hooks.json): writing it writes every name. Paths cannot tell; the link count can.
  const stat = statSync(resolved, { throwIfNoEntry: false });
  // A FIFO would block the write (or edit_file's read) until some other process opens it.
  if (stat !== undefined && !stat.isFile() && !stat.isDirectory()) {
    return `refused: ${target} is not a regular file (a device, FIFO or socket)`;
  }
  if (stat?.isFile() === true && stat.nlink > 1) {
    return `refused: ${target} has ${stat.nlink - 1} other hard link(s); a write would change the file under every name (copy it to a new file first)`;
  }
  return undefined;
}
