import { argumentEnvName, type DeclarativeToolConfig } from '@soong-agent/config';
import { runToolCommand } from './command-tool.js';
import { type FieldSpec, readToolInput, toJsonSchema } from './input.js';
import type { AgentTool, ToolContext } from './types.js';

/** Largest `NAME=value` string Linux passes to a program (MAX_ARG_STRLEN, 32 pages). */
export const MAX_ENV_VARIABLE_BYTES = 131_071;

/** `SOONG_ARG_<NAME>` (config owns the rule, and refuses two parameters with the same variable). */
export { argumentEnvName };

/** The env value of an argument: strings as they are, other values as JSON. */
export function argumentEnvValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A declarative tool from config.toml. Its arguments are validated against the declared
 * parameters and reach the command only as JSON on stdin and as `SOONG_ARG_<NAME>` variables —
 * never spliced into the shell string. It has no paths; risk and tags come from config.
 */
export function createDeclarativeTool(
  config: DeclarativeToolConfig,
  context: ToolContext,
): AgentTool {
  const fields: Record<string, FieldSpec> = {};
  for (const [name, parameter] of Object.entries(config.parameters)) {
    fields[name] = {
      type: parameter.type,
      required: parameter.required,
      description: parameter.description ?? '',
    };
  }
  return {
    name: config.name,
    risk: config.risk,
    tags: config.tags,
    description: config.description,
    // Built when a provider first asks for it (a `hooks` command or a session with no model turn
    // never does): the JSON Schema costs a few milliseconds of start.
    get inputSchema() {
      return toJsonSchema(fields);
    },
    paths: () => [],
    async execute(input, call) {
      let values: Record<string, unknown>;
      try {
        values = readToolInput(input ?? {}, fields);
      } catch (error) {
        return { content: (error as Error).message, isError: true };
      }
      const env: Record<string, string> = {};
      for (const [name, value] of Object.entries(values)) {
        if (value === undefined) continue;
        const variable = argumentEnvName(name);
        env[variable] = argumentEnvValue(value);
        // `NAME=value` must fit Linux's MAX_ARG_STRLEN, or the spawn fails with a bare E2BIG.
        const bytes = Buffer.byteLength(variable) + 1 + Buffer.byteLength(env[variable]);
        if (bytes > MAX_ENV_VARIABLE_BYTES) {
          return {
            content: `not run: argument "${name}" is too large for ${variable} (${bytes} bytes; an environment variable holds at most ${MAX_ENV_VARIABLE_BYTES}); pass large data as a path to a file`,
            isError: true,
          };
        }
      }
      return runToolCommand(context, {
        command: config.command,
        toolName: config.name,
        callId: call.callId,
        timeoutSec: config.timeout,
        input: JSON.stringify(values),
        env,
        ...(call.signal === undefined ? {} : { signal: call.signal }),
      });
    },
  };
}
