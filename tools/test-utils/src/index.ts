// @soong-agent/test-utils: the workspace's default test helpers (private, never published).
// Process-specific helpers (a package's fixtures, its fake servers) stay beside that package's tests.

export {
  type AgentWorkspace,
  type AgentWorkspaceOptions,
  makeAgentWorkspace,
  readSessionLines,
  writeHookScript,
  writeHooksJson,
} from './agent-workspace.js';
export {
  EVENTUALLY_INTERVAL_MS,
  EVENTUALLY_TIMEOUT_MS,
  type EventuallyOptions,
  EventuallyTimeoutError,
  eventually,
  quietPeriod,
} from './eventually.js';
export { allGone, groupGone, isAlive, liveGroupMembers, processGroupOf } from './processes.js';
export {
  minimalEnv,
  type ProcessOptions,
  type ProcessRun,
  runProcess,
  type StartedProcess,
  startProcess,
} from './run-process.js';
export {
  createTree,
  makeLongLivedTempDir,
  makeTempDir,
  tempDirFor,
  writeTree,
} from './temp-dir.js';
