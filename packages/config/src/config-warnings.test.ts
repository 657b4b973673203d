import { describe, expect, it } from 'vitest';
import { commandPath } from './config-warnings.js';

describe('commandPath', () => {
  it.each([
    ['~/.soong-agent/hooks/guard.sh --x', '~/.soong-agent/hooks/guard.sh'],
    ['  ./scripts/check', './scripts/check'],
    ['/usr/bin/env node x.js', '/usr/bin/env'],
    ["'/opt/my hooks/guard.sh' a", '/opt/my hooks/guard.sh'],
    ['"/opt/my hooks/guard.sh"', '/opt/my hooks/guard.sh'],
    ['~', '~'],
  ])('returns the path when the first word of %j is one', (command, expected) => {
    expect(commandPath(command)).toBe(expected);
  });

  it.each([
    ['npm test'],
    ['jq .x'],
    ['$HOME/x.sh'],
    ['"$HOME/x.sh"'],
    ['./x/*.sh'],
    ['a/b;c'],
    [''],
  ])('returns undefined when the first word of %j is not a plain path', (command) => {
    expect(commandPath(command)).toBeUndefined();
  });
});
