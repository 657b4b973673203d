import path from 'node:path';
import type { BuiltInToolSpec } from './define-tool.js';
import { findGuard, listGuardedDirectory, readGuardsFor } from './read-guard.js';

/** Entries `list_dir` returns at most. */
export const LIST_DIR_MAX_ENTRIES = 1000;

/**
 * `list_dir` (readonly): the entries of a directory, sorted; directories end with `/`. A directory
 * under a prefix guarded by a PreToolUse rule whose hooks did not see the call is refused, and an
 * entry under one is marked, as `grep` would skip it.
 */
export const listDirTool: BuiltInToolSpec = {
  name: 'list_dir',
  risk: 'readonly',
  description:
    'List a directory. Directories end with "/", symlinks with "@"; entries a hook rule guards are marked.',
  fields: {
    path: {
      type: 'string',
      required: true,
      description: 'directory path, relative to the project dir',
    },
  },
  pathField: 'path',
  async run(_values, context, call) {
    const dir = call.path as string;
    const guards = readGuardsFor(context, { tool: 'list_dir', risk: 'readonly', path: dir });
    const listing = await listGuardedDirectory(dir, guards);
    if ('refusal' in listing) return { content: listing.refusal, isError: true };
    const names = listing.entries
      .map((entry) => {
        const name = entry.isDirectory()
          ? `${entry.name}/`
          : entry.isSymbolicLink()
            ? `${entry.name}@`
            : entry.name;
        const guard = findGuard(
          [path.join(dir, entry.name), path.join(listing.real, entry.name)],
          guards,
        );
        return guard === undefined ? name : `${name} (guarded by ${guard.guardedBy})`;
      })
      .sort();
    const shown = names.slice(0, LIST_DIR_MAX_ENTRIES);
    const more =
      names.length > shown.length ? `\n[${names.length - shown.length} more entries]` : '';
    return { content: shown.length === 0 ? '(empty)' : shown.join('\n') + more, isError: false };
  },
};
