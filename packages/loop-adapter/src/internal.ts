// @soong-agent/loop-adapter/internal
//
// NOT PUBLIC API. A seam between the @soong-agent packages (the hosts: ai-sdk, mcp, opencode, pi),
// which move in lockstep with this exact version: it may change in any release, patches included,
// without notice. Application code imports `@soong-agent/loop-adapter`.

export { allowUnlessAsked } from './tool-gate.js';
