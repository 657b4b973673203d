import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selfCommand, shellQuote } from './self-command.js';

describe('selfCommand', () => {
  it('names soong-agent when started through its bin link', () => {
    expect(selfCommand(['/usr/bin/node', '/usr/local/bin/soong-agent'])).toBe('soong-agent');
  });

  it('gives node and the absolute script path when started as node dist/cli.js', () => {
    expect(selfCommand(['/usr/bin/node', '/repo/apps/reference-agent/dist/cli.js'])).toBe(
      'node /repo/apps/reference-agent/dist/cli.js',
    );
    expect(selfCommand(['/usr/bin/node', "/my repo/it's/cli.js"])).toBe(
      `node '/my repo/it'\\''s/cli.js'`,
    );
  });
});

describe('shellQuote', () => {
  it('gives the shell back the exact string when quoting any value', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((value) => !value.includes('\0')),
        (value) => {
          const echoed = execFileSync('/bin/sh', ['-c', `printf '%s' ${shellQuote(value)}`], {
            encoding: 'utf8',
          });
          expect(echoed).toBe(value);
        },
      ),
      { numRuns: 50 },
    );
  });
});
