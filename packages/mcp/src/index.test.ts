import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('index', () => {
  it('exports exactly the public runtime API when imported', () => {
    expect(Object.keys(api).sort()).toEqual([
      'MCP_CLIENT_BACKLOG_MAX_BYTES',
      'MCP_MAX_MESSAGE_BYTES',
      'MCP_MAX_MESSAGE_DEPTH',
      'MCP_PATH_ARGUMENTS',
      'MCP_PROXY_ERROR_CODES',
      'McpProxyError',
      'WorkerTransport',
      'createMcpHookProxy',
      'mcpToolPaths',
    ]);
  });
});
