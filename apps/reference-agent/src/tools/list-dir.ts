import { readdir } from 'node:fs/promises';
import type { BuiltInToolSpec } from './define-tool.js';

/** Entries `list_dir` returns at most. */
export const LIST_DIR_MAX_ENTRIES = 1000;

/** `list_dir` (readonly): the entries of a directory, sorted; directories end with `/`. */
export const listDirTool: BuiltInToolSpec = {
  name: 'list_dir',
  risk: 'readonly',
  description: 'List a directory. Directories end with "/", symlinks with "@".',
  fields: {
    path: {
      type: 'string',
      required: true,
      description: 'directory path, relative to the project dir',
    },
  },
  pathField: 'path',
  async run(_values, _context, call) {
    const entries = await readdir(call.path as string, { withFileTypes: true });
    const names = entries
      .map((entry) => {
        if (entry.isDirectory()) return `${entry.name}/`;
        if (entry.isSymbolicLink()) return `${entry.name}@`;
        return entry.name;
      })
      .sort();
    const shown = names.slice(0, LIST_DIR_MAX_ENTRIES);
    const more =
      names.length > shown.length ? `\n[${names.length - shown.length} more entries]` : '';
    return { content: shown.length === 0 ? '(empty)' : shown.join('\n') + more, isError: false };
  },
};
