import os from 'node:os';
import path from 'node:path';

/** Argument names whose string values (or arrays of strings) are the paths of an MCP tool call (spec §10). */
export const MCP_PATH_ARGUMENTS = [
  'path',
  'paths',
  'file',
  'file_path',
  'directory',
  'source',
  'destination',
] as const;

/** The paths of one call, as the server will read them. */
export interface McpToolPaths {
  /** Absolute (`~` expanded) or project-relative paths, for `path_prefix` matchers. */
  paths: string[];
  /** Values the proxy cannot resolve the way a server would: the call is refused. */
  unresolvable: string[];
}

/**
 * The paths a `tools/call` touches, read from the arguments named in {@link MCP_PATH_ARGUMENTS}.
 * `~` and `~/…` are expanded to the home directory, as MCP servers do (the filesystem server's
 * `expandHome`), so a guard on `~/app/secrets` sees `/home/me/app/secrets`, not
 * `<project>/~/app/secrets`. A value whose meaning depends on the server is unresolvable: `~user/…`,
 * a leading `$` (a shell variable), a `file:` URL, leading or trailing blanks or quotes (which some
 * servers strip).
 */
export function mcpToolPaths(input: unknown, homeDir: string = os.homedir()): McpToolPaths {
  const found: McpToolPaths = { paths: [], unresolvable: [] };
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return found;
  const args = input as Record<string, unknown>;
  const add = (value: unknown) => {
    if (typeof value !== 'string' || value === '') return;
    if (value === '~' || value.startsWith('~/'))
      found.paths.push(path.join(homeDir, value.slice(1)));
    else if (AMBIGUOUS.test(value)) found.unresolvable.push(value);
    else found.paths.push(value);
  };
  for (const key of MCP_PATH_ARGUMENTS) {
    if (!Object.hasOwn(args, key)) continue;
    const value = args[key];
    if (Array.isArray(value)) for (const item of value) add(item);
    else add(value);
  }
  return found;
}

// `~user`, `$VAR`, `file:` URLs, and blanks or quotes at either end.
const AMBIGUOUS = /^(?:~|\$|file:)|^[\s"']|[\s"']$/i;
