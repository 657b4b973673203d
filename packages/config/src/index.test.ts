import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('index', () => {
  it('pins the runtime exports', () => {
    expect(Object.keys(api).sort()).toEqual([
      'CONFIG_ERROR_CODES',
      'CONFIG_FILE',
      'CONFIG_WARNING_CODES',
      'ConfigError',
      'ConfigFileSchema',
      'DEFAULT_HOME_DIRNAME',
      'DEFAULT_MODEL_MAX_RESPONSE_BYTES',
      'DEFAULT_MODEL_REQUEST_TIMEOUT_SECONDS',
      'DEFAULT_MODEL_STREAM_IDLE_TIMEOUT_SECONDS',
      'DEFAULT_TOOL_TIMEOUT_SECONDS',
      'HOOKS_FILE',
      'HOOK_MODES',
      'HOOK_PROTOCOLS',
      'HookCommandSchema',
      'HooksFileSchema',
      'MAX_CONFIG_FILE_BYTES',
      'MAX_HOOK_TIMEOUT_SECONDS',
      'MAX_TOOL_TIMEOUT_SECONDS',
      'MIN_TIMEOUT_SECONDS',
      'analyzeCommand',
      'argumentEnvName',
      'checkToolNames',
      'commandFiles',
      'commandWords',
      'expandClaudeProjectDir',
      'findProgramInPath',
      'generateConfigJsonSchemas',
      'hookCommandVariables',
      'isDeclaredMcpTool',
      'jsonSyntaxIssue',
      'knownToolNames',
      'loadConfig',
      'parseShellWords',
      'readRegularFileSync',
      'resolveAgentHome',
    ]);
  });

  it('pins the file names and the warning codes', () => {
    expect([api.HOOKS_FILE, api.CONFIG_FILE]).toEqual(['hooks.json', 'config.toml']);
    expect(api.CONFIG_WARNING_CODES).toEqual([
      'FILE_WRITABLE_BY_OTHERS',
      'COMMAND_NOT_FOUND',
      'COMMAND_NOT_EXECUTABLE',
      'ON_FAILURE_DENY_OBSERVE_ONLY',
      'AGENT_HOME_IN_PROJECT',
      'AGENT_HOME_MISSING',
      'COMMAND_IN_PROJECT',
      'UNKNOWN_TOOL',
    ]);
  });
});
