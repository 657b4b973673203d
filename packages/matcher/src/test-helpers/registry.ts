import { createBuiltInMatchers } from '../built-in-matchers.js';
import { createMatcherRegistry } from '../matcher-registry.js';

/**
 * Other agents' tool names as a caller passes them (config passes the Claude Code dialect's table
 * from @soong-agent/dialects; the matcher knows none): test data.
 */
export const TEST_TOOL_ALIASES = Object.freeze({
  Bash: 'bash',
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit_file',
  MultiEdit: 'edit_file',
  Grep: 'grep',
  LS: 'list_dir',
});

/** The registry of the built-in matcher types, built once for the tests (as a caller does). */
export const BUILT_IN_REGISTRY = createMatcherRegistry(
  createBuiltInMatchers({ toolAliases: TEST_TOOL_ALIASES }),
);
