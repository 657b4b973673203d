// @soong-agent/paths: the public API. Everything here is semver-covered.
// The path rules an agent's host applies when it refuses a path: whether a path lies under a
// root, where it really leads, and the "you probably meant the repository" hint. The forms the
// matchers compare and the `~` expansion of configuration values are shared by the sibling
// packages through `@soong-agent/paths/internal`, which is not public.

export { findGitRoot, gitRootHint } from './git-root-hint.js';
export { isPathInside } from './is-path-inside.js';
export { type RealpathMemo, type ResolvedPath, realPathOfLongestAncestor } from './real-path.js';
