import { createToolRegistry } from '../tools/registry.js';
import type { AgentTool, ToolContext } from '../tools/types.js';

/**
 * The tool registry of a session in `projectDir` with test defaults (no env beyond PATH and HOME,
 * 1 MiB output, no guarded prefixes unless `hooks` says), and `call(name, input)` to run one tool.
 */
export function createTestTools(options: {
  projectDir: string;
  agentHome: string;
  hooks?: ToolContext['hooks'];
  settings?: Parameters<typeof createToolRegistry>[1];
}) {
  const context: ToolContext = {
    projectDir: options.projectDir,
    agentHome: options.agentHome,
    sessionId: '20261202T000000Z-abcdef',
    envAllowlist: ['PATH', 'HOME'],
    maxOutputBytes: 1024 * 1024,
    killGraceMs: 200,
    hooks: options.hooks ?? { guardedPrefixes: () => [] },
  };
  const tools = createToolRegistry(context, options.settings ?? { tools: [] });
  const call = async (name: string, input: unknown) => {
    const tool = tools.get(name) as AgentTool;
    return tool.execute(input, { callId: 'call_1' });
  };
  return { context, tools, call };
}
