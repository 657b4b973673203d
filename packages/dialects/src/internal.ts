// @soong-agent/dialects/internal
//
// NOT PUBLIC API. A seam between the @soong-agent packages (config and loop-adapter), which move in
// lockstep with this exact version: it may change in any release, patches included, without
// notice. Application code imports `@soong-agent/dialects`.

export {
  CLAUDE_CODE_TOOL_NAMES,
  claudeCodeDialect,
  claudeCodeToolName,
  claudeCodeView,
  toClaudeCodeToolInput,
} from './claude-code.js';
export { soongDialect } from './soong.js';
export { dialectToolAliases } from './tool-names.js';
