export { expandHome, resolveUserPath } from './expand-home.js';
export { findGitRoot, gitRootHint } from './git-root-hint.js';
export { isNormalizedPathInside, isPathInside } from './is-path-inside.js';
export { type PathFormsContext, pathForms } from './path-forms.js';
export { type RealpathMemo, type ResolvedPath, realPathOfLongestAncestor } from './real-path.js';
