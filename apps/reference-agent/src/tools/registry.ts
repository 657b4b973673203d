import type { Settings } from '@soong-agent/config';
import { CliError } from '../errors.js';
import { bashTool } from './bash.js';
import { createDeclarativeTool } from './declarative.js';
import { createBuiltInTool } from './define-tool.js';
import { editFileTool } from './edit-file.js';
import { grepTool } from './grep.js';
import { listDirTool } from './list-dir.js';
import { readFileTool } from './read-file.js';
import type { AgentTool, ToolContext } from './types.js';
import { writeFileTool } from './write-file.js';

/** The built-in tools of spec §6, in the order they are offered to the model. */
export const builtInToolSpecs = [
  readFileTool,
  listDirTool,
  grepTool,
  writeFileTool,
  editFileTool,
  bashTool,
] as const;

/** Names of the built-in tools. */
export const BUILT_IN_TOOL_NAMES: readonly string[] = builtInToolSpecs.map((spec) => spec.name);

/**
 * The session's tools by name: the built-ins plus the declarative tools of config.toml. A
 * declarative tool that reuses a built-in name is a configuration error (`CliError` `CONFIG`).
 */
export function createToolRegistry(
  context: ToolContext,
  settings: Pick<Settings, 'tools'>,
): Map<string, AgentTool> {
  const tools = new Map<string, AgentTool>();
  for (const spec of builtInToolSpecs) tools.set(spec.name, createBuiltInTool(spec, context));
  settings.tools.forEach((config, index) => {
    if (tools.has(config.name)) {
      throw new CliError({
        code: 'CONFIG',
        message: `${context.agentHome}/config.toml tools[${index}].name: ${JSON.stringify(config.name)} is already a tool name; give the declarative tool another name`,
      });
    }
    tools.set(config.name, createDeclarativeTool(config, context));
  });
  return tools;
}
