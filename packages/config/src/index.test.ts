import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import * as internal from './internal.js';

describe('index', () => {
  it('pins the runtime exports', () => {
    expect(Object.keys(api).sort()).toEqual([
      'CONFIG_ERROR_CODES',
      'CONFIG_FILE',
      'CONFIG_WARNING_CODES',
      'ConfigError',
      'ConfigFileSchema',
      'DEFAULT_MODEL_MAX_RESPONSE_BYTES',
      'DEFAULT_MODEL_REQUEST_TIMEOUT_SECONDS',
      'DEFAULT_MODEL_STREAM_IDLE_TIMEOUT_SECONDS',
      'DEFAULT_TOOL_TIMEOUT_SECONDS',
      'HOOKS_FILE',
      'HooksFileSchema',
      'MAX_CONFIG_FILE_BYTES',
      'MAX_TOOL_TIMEOUT_SECONDS',
      'argumentEnvName',
      'checkToolNames',
      'isDeclaredMcpTool',
      'jsonSyntaxIssue',
      'knownToolNames',
      'loadConfig',
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

describe('internal', () => {
  it('exports exactly the pinned names only sibling packages use, none of them public', () => {
    expect(Object.keys(internal).sort()).toEqual([
      'analyzeCommand',
      'findProgramInPath',
      'hookCommandVariables',
    ]);
    for (const name of Object.keys(internal)) expect(Object.keys(api)).not.toContain(name);
  });
});
