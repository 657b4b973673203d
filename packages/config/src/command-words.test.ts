import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandFiles, commandWords } from './index.js';

describe('commandWords', () => {
  it.each([
    ['python3 hooks/guard.py', ['python3*', 'hooks/guard.py']],
    ['\'./my guard.sh\' --flag "a b"', ['./my guard.sh*', '--flag', 'a b']],
    ['a; b && c | d', ['a*', 'b*', 'c*', 'd*']],
    ['FOO=1 BAR=2 node x.mjs', ['node*', 'x.mjs']],
    ['cat > out.log 2>/dev/null < in.txt', ['cat*', '2']],
    ['echo $HOME "$X" `id` *.py a\\ b ~root/x', ['echo*']],
    ['run.sh # a comment\nnext.sh', ['run.sh*', 'next.sh*']],
    ["echo 'unterminated", ['echo*']],
  ])('splits %j into its literal words', (command, expected) => {
    expect(commandWords(command).map((word) => `${word.text}${word.program ? '*' : ''}`)).toEqual(
      expected,
    );
  });
});

describe('commandFiles', () => {
  it('lists the existing regular files the words name, resolved, when given a working dir', () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'command-files-')));
    try {
      fs.writeFileSync(path.join(dir, 'guard.py'), '');
      fs.writeFileSync(path.join(dir, 'python3'), ''); // a program word is looked up in PATH
      fs.mkdirSync(path.join(dir, 'sub'));
      fs.writeFileSync(path.join(dir, 'out.log'), '');
      expect(
        commandFiles('python3 guard.py sub ./guard.py missing.py > out.log; ~/g.sh', {
          cwd: dir,
          homeDir: dir,
        }),
      ).toEqual([path.join(dir, 'guard.py')]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
