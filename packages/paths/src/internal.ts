// @soong-agent/paths/internal
//
// NOT PUBLIC API. A seam between the @soong-agent packages (matcher, config, loop-adapter), which
// move in lockstep with this exact version: it may change in any release, patches included,
// without notice. Application code imports `@soong-agent/paths`.

export { expandHome, resolveUserPath } from './expand-home.js';
export { isNormalizedPathInside } from './is-path-inside.js';
export { type PathFormsContext, pathForms } from './path-forms.js';
