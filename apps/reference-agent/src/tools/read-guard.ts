import { constants, type Dirent } from 'node:fs';
import { type FileHandle, lstat, open, readdir, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { HookGuardedPrefix } from '@soong-agent/config';
import { isPathInside } from '@soong-agent/paths';
import type { RiskClass } from '@soong-agent/protocol';
import type { ToolContext } from './types.js';

/**
 * A path prefix a read must not reach into (plain data: it crosses into grep's worker thread):
 * the `path_prefix` of a PreToolUse rule whose hooks did not see the call.
 */
export interface ReadGuard {
  /** The prefix as configured. */
  prefix: string;
  /** Every form the matcher compares with (normalised absolute, symlink-resolved). */
  forms: readonly string[];
  /** Who guards it, for people: `PreToolUse rule protect-secrets`. */
  guardedBy: string;
}

/** A direct read: the call whose rules a walk or a re-opened path must not get around. */
const DIRECT_READ = { tool: 'read_file', tags: ['readonly'] } as const;

/**
 * The prefixes a call of a built-in read tool must not reach into: the `path_prefix` values of the
 * PreToolUse rules whose `tool` and `tag` criteria match the call or a direct `read_file`, except
 * where the call's path as written lies under the prefix (the rule's hooks then ran on it). See
 * `CompiledHooks.guardedPrefixes`.
 */
export function readGuardsFor(
  context: Pick<ToolContext, 'hooks'>,
  call: { tool: string; risk: RiskClass; path: string },
): ReadGuard[] {
  const guards = context.hooks.guardedPrefixes(
    { event: 'PreToolUse', tool: call.tool, tags: [call.risk], paths: [call.path] },
    [DIRECT_READ],
  );
  return guards.map((guard) => ({
    prefix: guard.prefix,
    forms: guard.forms,
    guardedBy: guardedBy(guard),
  }));
}

function guardedBy(guard: HookGuardedPrefix): string {
  const ids = guard.rule.hooks.map((hook) => hook.id);
  return ids.length === 1
    ? `PreToolUse rule ${ids[0]}`
    : `PreToolUse rule ${guard.ruleIndex} (${ids.join(', ')})`;
}

/** The first guard one of `forms` lies at or under, if any. */
export function findGuard(
  forms: readonly string[],
  guards: readonly ReadGuard[],
): ReadGuard | undefined {
  for (const guard of guards) {
    for (const form of forms) {
      for (const prefix of guard.forms) if (isPathInside(form, prefix)) return guard;
    }
  }
  return undefined;
}

const PROC_FD = '/proc/self/fd';

/**
 * The real path of what `handle` is open on. On Linux it is the kernel's own answer
 * (`/proc/self/fd/N`), which no rename or symlink swap after the open can change. Elsewhere (macOS
 * has no `F_GETPATH` in Node) `file` is resolved with `realpath` and accepted only when what lies
 * there now is the very file that is open (same device and inode, by `lstat`, so a symlink swapped
 * in its place does not pass): the descriptor is then known to be that path. `undefined` when
 * neither says where the descriptor is (the path changed between the open and the check).
 */
export async function realPathOfHandle(
  handle: FileHandle,
  file: string,
): Promise<string | undefined> {
  if (process.platform === 'linux') {
    try {
      const target = await readlink(`${PROC_FD}/${handle.fd}`);
      // A file removed since the open is shown as `path (deleted)`: not a path any rule can name.
      if (path.isAbsolute(target) && !target.endsWith(' (deleted)')) return target;
      return undefined;
    } catch {
      // /proc not mounted: fall back to comparing identities.
    }
  }
  try {
    const real = await realpath(file);
    const [opened, there] = await Promise.all([handle.stat(), lstat(real)]);
    return opened.dev === there.dev && opened.ino === there.ino ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why a read of `file` through `handle` must not return its content, or undefined: the descriptor's
 * real path must be `expected` when given (a walk knows where each entry really is), and must not
 * lie under a guarded prefix. Nothing is checked when there are no guards.
 */
export async function guardRefusal(
  handle: FileHandle,
  file: string,
  guards: readonly ReadGuard[],
  expected?: string,
): Promise<string | undefined> {
  if (guards.length === 0) return undefined;
  const real = await realPathOfHandle(handle, file);
  if (real === undefined || (expected !== undefined && real !== expected)) {
    return `refused: ${file} changed while it was being opened (it no longer leads where it did); nothing was read`;
  }
  const guard = findGuard([real], guards);
  if (guard === undefined) return undefined;
  return `refused: ${file} resolves to ${real}, under ${guard.prefix}, guarded by ${guard.guardedBy}; the hooks did not see that path (it is a symlink, or it changed after they ran). Read ${real} by its own path so that the rule's hooks decide`;
}

/** What {@link listGuardedDirectory} found. */
export type GuardedListing =
  | { entries: Dirent[]; real: string }
  | { refusal: string; guard?: ReadGuard };

/**
 * The entries of directory `dir`, when neither the directory nor
 * (with `expected`) a change of what `dir` leads to takes the listing under a guarded prefix. The
 * directory is opened first and checked by its descriptor; on Linux it is then listed through the
 * descriptor (`/proc/self/fd/N`), so what is listed is what was checked; elsewhere it is listed by
 * path and checked again after. `expected` is where a walk knows `dir` to be; `followLink` (default:
 * when no `expected` is given) follows a symlink at `dir` itself — a walk follows none.
 */
export async function listGuardedDirectory(
  dir: string,
  guards: readonly ReadGuard[],
  options: { expected?: string; followLink?: boolean } = {},
): Promise<GuardedListing> {
  const { expected, followLink = expected === undefined } = options;
  if (guards.length === 0) {
    return { entries: await readdir(dir, { withFileTypes: true }), real: expected ?? dir };
  }
  const flags =
    constants.O_RDONLY | constants.O_DIRECTORY | (followLink ? 0 : constants.O_NOFOLLOW);
  const handle = await open(dir, flags);
  try {
    const real = await realPathOfHandle(handle, dir);
    if (real === undefined || (expected !== undefined && real !== expected)) {
      return {
        refusal: `refused: ${dir} changed while it was being opened (it no longer leads where it did); nothing was listed`,
      };
    }
    const guard = findGuard([real], guards);
    if (guard !== undefined) {
      return {
        refusal: `refused: ${dir} resolves to ${real}, under ${guard.prefix}, guarded by ${guard.guardedBy}`,
        guard,
      };
    }
    let entries: Dirent[] | undefined;
    if (process.platform === 'linux') {
      entries = await readdir(`${PROC_FD}/${handle.fd}`, { withFileTypes: true }).catch(
        () => undefined,
      );
    }
    if (entries === undefined) {
      entries = await readdir(dir, { withFileTypes: true });
      if ((await realPathOfHandle(handle, dir)) !== real) {
        return { refusal: `refused: ${dir} changed while it was being listed; nothing was listed` };
      }
    }
    return { entries, real };
  } finally {
    await handle.close();
  }
}
