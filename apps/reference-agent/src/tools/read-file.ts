import type { BuiltInToolSpec } from './define-tool.js';
import { readGuardsFor } from './read-guard.js';
import { readRegularFile } from './regular-file.js';

/** Files larger than this are refused by `read_file` (the model should not get gigabytes). */
export const READ_FILE_MAX_BYTES = 16 * 1024 * 1024;
/** Lines `read_file` returns when no `limit` is given. */
export const READ_FILE_DEFAULT_LINES = 2000;

/** `read_file` (readonly): lines of a text file; `offset` is the first line (1-based), `limit` a count. */
export const readFileTool: BuiltInToolSpec = {
  name: 'read_file',
  risk: 'readonly',
  description: 'Read a text file. offset: first line (1-based); limit: number of lines.',
  fields: {
    path: { type: 'string', required: true, description: 'file path, relative to the project dir' },
    offset: { type: 'number', required: false, description: 'first line to return (1-based)' },
    limit: {
      type: 'number',
      required: false,
      description: `lines to return (default ${READ_FILE_DEFAULT_LINES})`,
    },
  },
  pathField: 'path',
  async run(values, context, call) {
    const file = call.path as string;
    // The hooks saw the path as it led then; what is opened is checked by its descriptor.
    const guards = readGuardsFor(context, { tool: 'read_file', risk: 'readonly', path: file });
    const read = await readRegularFile(file, READ_FILE_MAX_BYTES, { guards });
    if ('refused' in read) return { content: read.refused, isError: true };
    if ('problem' in read) {
      const content =
        read.problem === 'directory'
          ? `${file} is a directory; use list_dir`
          : read.problem === 'too large'
            ? `${file} is ${read.size > READ_FILE_MAX_BYTES ? `${read.size} bytes` : `larger than ${READ_FILE_MAX_BYTES} bytes`}; read_file reads files up to ${READ_FILE_MAX_BYTES} bytes`
            : `${file} is not a regular file (a device, FIFO, socket or special /proc file); read_file reads regular files only`;
      return { content, isError: true };
    }
    const buffer = read.buffer;
    if (buffer.includes(0))
      return { content: `${file} is a binary file (${buffer.length} bytes)`, isError: true };
    const offset = Math.max(1, Math.floor((values.offset as number | undefined) ?? 1));
    const limit = Math.max(
      0,
      Math.floor((values.limit as number | undefined) ?? READ_FILE_DEFAULT_LINES),
    );
    const lines = buffer.toString('utf8').split('\n');
    const selected = lines.slice(offset - 1, offset - 1 + limit);
    const remaining = lines.length - (offset - 1 + selected.length);
    const more =
      remaining > 0
        ? `\n[${remaining} more lines; continue with offset ${offset + selected.length}]`
        : '';
    return { content: selected.join('\n') + more, isError: false };
  },
};
