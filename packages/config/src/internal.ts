// @soong-agent/config/internal
//
// NOT PUBLIC API. A seam between the @soong-agent packages (loop-adapter runs the hook commands
// this package compiled), which move in lockstep with this exact version: it may change in any
// release, patches included, without notice. Application code imports `@soong-agent/config`.

export { analyzeCommand, findProgramInPath, hookCommandVariables } from './command-words.js';
export type { HookCommandConfig } from './compiled-hooks.js';
