import path from 'node:path';

/**
 * Expands a leading `~` the way a shell does for the current user: `~` is `homeDir`, `~/rest` is
 * `rest` under `homeDir`. Anything else comes back unchanged, including `~user/…` (another user's
 * home, which is never looked up) and a `~` later in the path. The expansion is textual: `..` and
 * `.` stay as written (after a symlink, `..` leads where the OS walks, not where the text
 * suggests); {@link resolveUserPath} normalises.
 */
export function expandHome(value: string, homeDir: string): string {
  if (value === '~') return homeDir;
  if (!value.startsWith('~/')) return value;
  const rest = value.slice(2);
  return homeDir.endsWith(path.sep) ? `${homeDir}${rest}` : `${homeDir}${path.sep}${rest}`;
}

/**
 * A path as a user writes it in configuration, made absolute: `~` expanded with
 * {@link expandHome}, then resolved against `base` and normalised (`..`, `.`, duplicate and
 * trailing separators removed). Symlinks are not resolved.
 */
export function resolveUserPath(value: string, base: string, homeDir: string): string {
  return path.resolve(base, expandHome(value, homeDir));
}
