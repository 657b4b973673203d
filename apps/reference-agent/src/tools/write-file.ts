import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BuiltInToolSpec } from './define-tool.js';
import { writeRefusal } from './paths.js';

/** `write_file` (write): creates or replaces a file inside the project dir, never in the agent home. */
export const writeFileTool: BuiltInToolSpec = {
  name: 'write_file',
  risk: 'write',
  description: 'Create or overwrite a file (parent directories are created).',
  fields: {
    path: { type: 'string', required: true, description: 'file path, relative to the project dir' },
    content: { type: 'string', required: true, description: 'the whole new content' },
  },
  pathField: 'path',
  async run(values, context, call) {
    const file = call.path as string;
    const refusal = writeRefusal(file, context);
    if (refusal !== undefined) return { content: refusal, isError: true };
    const content = values.content as string;
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
    return { content: `wrote ${Buffer.byteLength(content)} bytes to ${file}`, isError: false };
  },
};
