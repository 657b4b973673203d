import { writeFile } from 'node:fs/promises';
import type { BuiltInToolSpec } from './define-tool.js';
import { writeRefusal } from './paths.js';
import { READ_FILE_MAX_BYTES } from './read-file.js';
import { readRegularFile } from './regular-file.js';

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (
    let index = text.indexOf(needle);
    index !== -1;
    index = text.indexOf(needle, index + needle.length)
  ) {
    count += 1;
  }
  return count;
}

/** `edit_file` (write): replaces the one occurrence of `old_string` with `new_string`. */
export const editFileTool: BuiltInToolSpec = {
  name: 'edit_file',
  risk: 'write',
  description: 'Replace old_string (which must occur exactly once) with new_string in a file.',
  fields: {
    path: { type: 'string', required: true, description: 'file path, relative to the project dir' },
    old_string: {
      type: 'string',
      required: true,
      description: 'text to replace; must occur exactly once',
    },
    new_string: { type: 'string', required: true, description: 'replacement text' },
  },
  pathField: 'path',
  async run(values, context, call) {
    const file = call.path as string;
    const refusal = writeRefusal(file, context);
    if (refusal !== undefined) return { content: refusal, isError: true };
    const oldString = values.old_string as string;
    const newString = values.new_string as string;
    if (oldString === '')
      return { content: 'invalid input: "old_string" must not be empty', isError: true };
    const read = await readRegularFile(file, READ_FILE_MAX_BYTES);
    if ('refused' in read) return { content: read.refused, isError: true };
    if ('problem' in read) {
      const problem =
        read.problem === 'too large'
          ? `larger than ${READ_FILE_MAX_BYTES} bytes; edit_file edits files up to that size`
          : read.problem === 'directory'
            ? 'a directory'
            : 'not a regular file (a device, FIFO, socket or special /proc file)';
      return { content: `${file} is ${problem}`, isError: true };
    }
    const text = read.buffer.toString('utf8');
    const count = countOccurrences(text, oldString);
    if (count !== 1) {
      const problem =
        count === 0
          ? 'was not found'
          : `occurs ${count} times; include more context to make it unique`;
      return { content: `old_string ${problem} in ${file}`, isError: true };
    }
    const index = text.indexOf(oldString);
    await writeFile(file, text.slice(0, index) + newString + text.slice(index + oldString.length));
    return { content: `edited ${file}`, isError: false };
  },
};
