import { DEFAULT_TOOL_TIMEOUT_SECONDS, MAX_TOOL_TIMEOUT_SECONDS } from '@soong-agent/config';
import { runToolCommand } from './command-tool.js';
import type { BuiltInToolSpec } from './define-tool.js';
import { ToolInputError } from './input.js';

/** `bash` (dangerous): a shell command in the project dir, through the runner, with a timeout. */
export const bashTool: BuiltInToolSpec = {
  name: 'bash',
  risk: 'dangerous',
  description: `Run a shell command (/bin/sh -c) in the project dir. timeout: seconds (default ${DEFAULT_TOOL_TIMEOUT_SECONDS}, at most ${MAX_TOOL_TIMEOUT_SECONDS}).`,
  fields: {
    command: { type: 'string', required: true, description: 'the shell command' },
    timeout: {
      type: 'number',
      required: false,
      description: `seconds (default ${DEFAULT_TOOL_TIMEOUT_SECONDS})`,
    },
  },
  async run(values, context, call) {
    const command = values.command as string;
    if (command.trim() === '')
      throw new ToolInputError('invalid input: "command" must not be empty');
    const timeoutSec = (values.timeout as number | undefined) ?? DEFAULT_TOOL_TIMEOUT_SECONDS;
    if (timeoutSec <= 0 || timeoutSec > MAX_TOOL_TIMEOUT_SECONDS) {
      throw new ToolInputError(
        `invalid input: "timeout" must be > 0 and <= ${MAX_TOOL_TIMEOUT_SECONDS} seconds`,
      );
    }
    return runToolCommand(context, {
      command,
      toolName: 'bash',
      callId: call.callId,
      timeoutSec,
      ...(call.signal === undefined ? {} : { signal: call.signal }),
    });
  },
};
