import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** Resolves a tool's `path` input against the project dir. */
export function resolveToolPath(projectDir: string, input: string): string {
  return path.resolve(projectDir, input);
}

/** True when `child` is `parent` or lies under it, by whole path segments. */
export function isPathInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Symlinks followed in one resolution before giving up, like the kernel's ELOOP limit. */
const MAX_SYMLINK_HOPS = 40;

/**
 * The path with symlinks resolved: the longest existing ancestor is resolved and the rest
 * appended, so a path that does not exist yet still resolves through a symlinked parent. A dangling
 * symlink is followed too: writing through it creates its target, so the target is where it leads.
 */
export function realPathOfLongestAncestor(absolute: string, hops = 0): string {
  const rest: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return path.join(realpathSync(current), ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      const target = danglingLinkTarget(current);
      if (target !== undefined && hops < MAX_SYMLINK_HOPS) {
        const realParent = realPathOfLongestAncestor(parent, hops + 1);
        const followed = path.isAbsolute(target) ? target : `${realParent}${path.sep}${target}`;
        return path.join(realPathOfLongestAncestor(followed, hops + 1), ...rest.reverse());
      }
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

function danglingLinkTarget(file: string): string | undefined {
  try {
    return lstatSync(file).isSymbolicLink() ? readlinkSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why a write tool must not touch `target`, or undefined when it may: the agent cannot rewrite its
 * own hooks (any path inside the agent home), and writes stay inside the project dir. Both paths are
 * compared as written and with symlinks resolved, so a symlink cannot dodge the check.
 */
export function writeRefusal(
  target: string,
  context: { projectDir: string; agentHome: string },
): string | undefined {
  const forms = [target, realPathOfLongestAncestor(target)];
  const homes = [context.agentHome, realPathOfLongestAncestor(context.agentHome)];
  if (forms.some((form) => homes.some((home) => isPathInside(form, home)))) {
    return `refused: ${target} is inside the agent home (${context.agentHome}); the agent cannot rewrite its own configuration or hooks`;
  }
  const projects = [context.projectDir, realPathOfLongestAncestor(context.projectDir)];
  const resolved = forms[1] as string;
  if (!projects.some((project) => isPathInside(resolved, project))) {
    return `refused: ${target} is outside the project dir (${context.projectDir}); write tools only write inside the project`;
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
