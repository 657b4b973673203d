import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeCommand, commandFiles, commandWords } from './command-words.js';

describe('commandWords', () => {
  it.each([
    ['python3 hooks/guard.py', ['python3*', 'hooks/guard.py']],
    ['\'./my guard.sh\' --flag "a b"', ['./my guard.sh*', '--flag', 'a b']],
    ['a; b && c | d', ['a*', 'b*', 'c*', 'd*']],
    ['FOO=1 BAR=2 node x.mjs', ['node*', 'x.mjs']],
    ['cat > out.log 2>/dev/null < in.txt', ['cat*']],
    ['echo $HOME "$X" `id` *.py a\\ b ~root/x', ['echo*', 'a b']],
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

describe('analyzeCommand', () => {
  const variables = {
    CLAUDE_PROJECT_DIR: '/p',
    SOONG_AGENT_PROJECT_DIR: '/p',
    SOONG_AGENT_HOME: '/h',
  };
  const run = (command: string) =>
    analyzeCommand(command, { cwd: '/cwd', homeDir: '/u', variables }).targets.map(
      (target) => `${target.role}:${target.path ?? target.text}`,
    );

  it.each([
    [
      'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py"',
      ['program:python3', 'script:/p/.claude/hooks/guard.py'],
    ],
    [
      `bash -c 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py"'`,
      ['program:bash', 'program:python3', 'script:/p/.claude/hooks/guard.py'],
    ],
    [
      `sh -ec "exec node \\"\\$SOONG_AGENT_HOME\\"/hooks/g.mjs"`,
      ['program:sh', 'program:node', 'script:/h/hooks/g.mjs'],
    ],
    ['"$SOONG_AGENT_PROJECT_DIR"/hooks/guard.sh --strict', ['program:/p/hooks/guard.sh']],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's spelling, not a template
    ['${SOONG_AGENT_HOME:-~/.soong-agent}/hooks/g.sh', ['program:/h/hooks/g.sh']],
    [
      'exec env A=1 timeout 5 node --require ./pre.js ~/g.mjs',
      ['program:node', 'script:/cwd/pre.js', 'script:/u/g.mjs'],
    ],
    ['. ./lib.sh && ./run', ['program:.', 'script:/cwd/lib.sh', 'program:/cwd/run']],
    ['if [ -f x ]; then ./a.sh; fi', ['program:[', 'program:/cwd/a.sh']],
    ['cat <<EOF\n./not-run.sh\nEOF\n./after.sh', ['program:cat', 'program:/cwd/after.sh']],
    // What hooks import writes for a plugin's hook: the variable is set by the command itself.
    [
      `CLAUDE_PLUGIN_ROOT='/plug in'; export CLAUDE_PLUGIN_ROOT; python3 "\${CLAUDE_PLUGIN_ROOT}/hooks/g.py"`,
      ['program:export', 'program:python3', 'script:/plug in/hooks/g.py'],
    ],
    ['export G=/g; A=/a $G/run.sh', ['program:export', 'program:/g/run.sh']],
    [
      'cd hooks && ./guard.sh && cd .. && ./top.sh',
      ['program:/cwd/hooks/guard.sh', 'program:/cwd/top.sh'],
    ],
    ['cd "$UNKNOWN" && ./guard.sh; /abs/x.sh', ['program:/abs/x.sh']],
  ])('finds what %j runs', (command, expected) => {
    expect(run(command)).toEqual(expected);
  });

  it.each([
    `jq -r '.tool_input.file_path // "src/x.ts"'`,
    `sed -n 's#/etc/passwd#x#p' ./README.md`,
    `node -e 'require("./hooks/x.js")'`,
    `python3 -c 'import hooks.guard'`,
    `echo "./scripts/guard.sh is not run"`,
    `grep -q ./hooks/guard.py /dev/null`,
  ])('finds no script in the code or arguments of %j', (command) => {
    expect(
      run(command).filter((target) => target.startsWith('script:') || target.includes('/')),
    ).toEqual([]);
  });

  it('says it is incomplete when a program or a -c body is only known to the shell', () => {
    expect(analyzeCommand('$GUARD --x', { cwd: '/' }).complete).toBe(false);
    expect(analyzeCommand('bash -c "$BODY"', { cwd: '/' }).complete).toBe(false);
    expect(analyzeCommand('./a.sh | jq .', { cwd: '/' }).complete).toBe(true);
  });
});
