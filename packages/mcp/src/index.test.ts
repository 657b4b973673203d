import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import * as internal from './internal.js';

describe('index', () => {
  it('exports exactly the public runtime API when imported', () => {
    expect(Object.keys(api).sort()).toEqual([
      'MCP_PROXY_ERROR_CODES',
      'McpProxyError',
      'WorkerTransport',
      'createMcpHookProxy',
    ]);
  });
});

describe('internal', () => {
  it('exports exactly the pinned names only sibling packages use, none of them public', () => {
    expect(Object.keys(internal).sort()).toEqual(['mcpToolPaths']);
    for (const name of Object.keys(internal)) expect(Object.keys(api)).not.toContain(name);
  });

  it('loads no MCP SDK code (opencode imports it without the peer dependency)', () => {
    const imports = (file: string) =>
      [...fs.readFileSync(new URL(file, import.meta.url), 'utf8').matchAll(/from '([^']+)'/g)].map(
        (match) => match[1],
      );
    expect(imports('./internal.ts')).toEqual(['./tool-paths.js']);
    expect(imports('./tool-paths.ts').every((source) => source?.startsWith('node:'))).toBe(true);
  });
});
