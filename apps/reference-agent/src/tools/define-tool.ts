import type { ToolExecutionResult } from '@soong-agent/loop-adapter';
import type { RiskClass } from '@soong-agent/protocol';
import { type FieldSpec, pathField, readToolInput, ToolInputError, toJsonSchema } from './input.js';
import { resolveToolPath } from './paths.js';
import type { AgentTool, ToolContext } from './types.js';

type InputValues = Record<string, string | number | boolean | undefined>;

/** How a built-in tool is described: its fields, and what it does with validated values. */
export interface BuiltInToolSpec {
  name: string;
  risk: RiskClass;
  description: string;
  fields: Readonly<Record<string, FieldSpec>>;
  /** The input field holding the call's path, resolved against the project dir. */
  pathField?: string;
  /** Default of the path field when absent (e.g. `.` for grep). */
  defaultPath?: string;
  run(
    values: InputValues,
    context: ToolContext,
    call: { signal?: AbortSignal; callId: string; path?: string },
  ): Promise<ToolExecutionResult>;
}

function failureText(error: unknown): string {
  if (error instanceof ToolInputError) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  // Node's own messages already start with the code ("ENOENT: no such file or directory, ...").
  return code === undefined || message.startsWith(`${code}:`) ? message : `${code}: ${message}`;
}

/** Builds an {@link AgentTool} from a spec: input validation, path resolution, errors as results. */
export function createBuiltInTool(spec: BuiltInToolSpec, context: ToolContext): AgentTool {
  const callPath = (input: unknown): string | undefined => {
    if (spec.pathField === undefined) return undefined;
    const written = pathField(input, spec.pathField) ?? spec.defaultPath;
    return written === undefined ? undefined : resolveToolPath(context.projectDir, written);
  };
  return {
    name: spec.name,
    risk: spec.risk,
    description: spec.description,
    // Built when a provider first asks for it (a `hooks` command or a session with no model turn
    // never does): the JSON Schema costs a few milliseconds of start.
    get inputSchema() {
      return toJsonSchema(spec.fields);
    },
    paths: (input) => {
      const resolved = callPath(input);
      return resolved === undefined ? [] : [resolved];
    },
    async execute(input, call) {
      try {
        const values = readToolInput(input, spec.fields);
        if (spec.pathField !== undefined && values[spec.pathField] === '') {
          throw new ToolInputError(`invalid input: "${spec.pathField}" must not be empty`);
        }
        const resolved = callPath(input);
        return await spec.run(values, context, {
          ...call,
          ...(resolved === undefined ? {} : { path: resolved }),
        });
      } catch (error) {
        return { content: failureText(error), isError: true };
      }
    },
  };
}
