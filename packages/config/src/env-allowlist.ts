/**
 * The runner's pinned default env allowlist (SPEC §1.3), copied here because config may not depend
 * on the runner; a test pins both to the same list.
 */
export const DEFAULT_ENV_ALLOWLIST: readonly string[] = Object.freeze([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'LANG',
  'LC_ALL',
  'TZ',
  'TMPDIR',
]);

/** The default list plus `adds` (in order, once each) minus `excludes`. */
export function buildEnvAllowlist(
  adds: readonly string[],
  excludes: readonly string[],
): readonly string[] {
  const excluded = new Set(excludes);
  return Object.freeze(
    [...new Set([...DEFAULT_ENV_ALLOWLIST, ...adds])].filter((name) => !excluded.has(name)),
  );
}
