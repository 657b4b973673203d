import { describe, expect, it } from 'vitest';
import { mcpToolPaths } from './tool-paths.js';

describe('mcpToolPaths', () => {
  it('expands ~ and ~/ to the home directory the way MCP servers do', () => {
    expect(mcpToolPaths({ path: '~/app/key.txt', paths: ['~', 'a.txt'] }, '/home/me')).toEqual({
      paths: ['/home/me/app/key.txt', '/home/me', 'a.txt'],
      unresolvable: [],
    });
  });

  it('refuses values a server may read differently when they are ~user, $VAR, file: or padded', () => {
    const values = [
      '~root/x',
      '$HOME/x',
      'file:///etc/passwd',
      ' a.txt',
      'a.txt ',
      '"a.txt"',
      "'a'",
    ];
    expect(mcpToolPaths({ paths: values }, '/home/me')).toEqual({
      paths: [],
      unresolvable: values,
    });
  });

  it('reads only own argument names and skips non-strings when the input is odd', () => {
    const inherited = Object.create({ path: '/etc/passwd' }) as Record<string, unknown>;
    expect(mcpToolPaths(inherited, '/h')).toEqual({ paths: [], unresolvable: [] });
    expect(mcpToolPaths({ file: 3, source: ['', null, 'src'] }, '/h')).toEqual({
      paths: ['src'],
      unresolvable: [],
    });
    expect(mcpToolPaths(['path'], '/h')).toEqual({ paths: [], unresolvable: [] });
  });
});
