import { DEFAULT_ENV_ALLOWLIST } from './defaults.js';

/** Options of {@link buildChildEnv}. */
export interface BuildChildEnvOptions {
  /**
   * Names (exact, case-sensitive) of parent variables the child may see.
   * @default DEFAULT_ENV_ALLOWLIST
   */
  allowlist?: readonly string[] | undefined;
  /**
   * Extra variables, applied over the allowlisted ones and passed as given.
   * @default {}
   */
  extra?: Readonly<Record<string, string>> | undefined;
  /**
   * The environment to pick allowlisted variables from.
   * @default process.env
   */
  parentEnv?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * The exact environment a child gets: the allowlisted parent variables that are set, minus
 * values beginning with `()` (exported shell functions), plus `extra` as given.
 * Exported so callers can preview or log it; `runCommand` uses the same rule.
 */
export function buildChildEnv(options: BuildChildEnvOptions = {}): Record<string, string> {
  const { allowlist = DEFAULT_ENV_ALLOWLIST, extra = {}, parentEnv = process.env } = options;
  const entries: [string, string][] = [];
  for (const name of allowlist) {
    const value = parentEnv[name];
    // A non-string (an inherited property of a plain object) is not a variable.
    if (typeof value !== 'string' || value.startsWith('()')) continue;
    entries.push([name, value]);
  }
  // fromEntries defines own properties, so even a variable named __proto__ stays a variable.
  return Object.fromEntries([...entries, ...Object.entries(extra)]);
}
