import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseShellWords } from './shell-words.js';

// Values the real shell gets in its environment and the parser as known variables.
const VARIABLES = { SOONG_AGENT_HOME: '/h/home dir', PLAIN: '/p/x', EMPTY: '' };

const plain = fc.stringMatching(/^[a-z0-9./_=:,@%+-]{1,6}$/);
const anyText = fc.string({ maxLength: 6 }).map((text) => text.replaceAll('\0', ''));
const segment = fc.oneof(
  plain,
  anyText.map((text) => `'${text.replaceAll("'", '')}'`),
  anyText.map((text) => `"${text.replace(/[$`"\\]/g, '\\$&')}"`),
  fc.constantFrom('\\ ', '\\"', "\\'", '\\\\', '\\$', '\\;', '\\|'),
  fc
    .constantFrom(...Object.keys(VARIABLES))
    .chain((name) =>
      fc.constantFrom(`"$${name}"`, `"\${${name}}"`, `"\${${name}:-fallback}"`, `$${name}`),
    ),
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's spelling, not a template
  fc.constantFrom('"$NOT_SET"', '${NOT_SET:-a b}', '$(echo hi)', '*', '~'),
);
const word = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));
const separator = fc.constantFrom(' ', '  ', '\t', ' \\\n ');

describe('parseShellWords', () => {
  it('splits words exactly as /bin/sh does whenever it claims to know them', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(separator, word), { minLength: 1, maxLength: 5 }), (parts) => {
        const tail = parts.map(([blank, text]) => `${blank}${text}`).join('');
        const command = `printf '%s\\0'${tail}`;
        const parsed = parseShellWords(command, { variables: VARIABLES });
        const words = parsed.commands.flatMap((simple) => simple.words).slice(2);
        if (parsed.commands.length !== 1 || words.some((each) => each.text === undefined)) return;
        const shell = spawnSync('/bin/sh', ['-c', command], {
          env: { PATH: process.env.PATH, ...VARIABLES },
          encoding: 'utf8',
        });
        expect(shell.status).toBe(0);
        const expected = shell.stdout === '' ? [] : shell.stdout.slice(0, -1).split('\0');
        // printf with no operand still prints its format once: one empty word.
        expect(words.map((each) => each.text)).toEqual(words.length === 0 ? [] : expected);
      }),
      { numRuns: 150 },
    );
  });

  it('never throws and never loses the end of a command, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (command) => {
        const parsed = parseShellWords(command, { variables: VARIABLES, homeDir: '/u' });
        for (const simple of parsed.commands) {
          for (const each of simple.words) expect(command).toContain(each.raw);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
