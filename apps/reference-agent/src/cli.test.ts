import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOOK_EVENTS } from '@soong-agent/protocol';
import { eventually, isAlive, makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import {
  CLI,
  makeWorkspace,
  parseRecords,
  runCli,
  startCli,
  writeScript,
} from './test-helpers/cli.js';

const COMMANDS = [
  ['run'],
  ['demo'],
  ['hooks'],
  ['hooks', 'validate'],
  ['hooks', 'list'],
  ['hooks', 'explain'],
  ['hooks', 'test'],
  ['hooks', 'import'],
  ['events'],
];
const TIMEOUT = 60_000;

function hooksJson(hooks: Record<string, unknown>): string {
  return `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`;
}

const denyCommand = (reason: string) =>
  `cat >/dev/null; echo '{"decision":"deny","reason":"${reason}"}'`;

describe('soong-agent', () => {
  it(
    'prints the package version and the commit of the clone it was built in, and exits 0, when given --version',
    async () => {
      const manifest = JSON.parse(
        fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
      ) as { version: string };
      // The test runs in this repository's clone; git itself says which commit is checked out.
      const head = execFileSync('git', ['rev-parse', 'HEAD'], {
        cwd: path.dirname(CLI),
        encoding: 'utf8',
      }).trim();
      for (const flag of ['--version', '-V']) {
        const result = await runCli([flag]);
        expect(result).toMatchObject({
          code: 0,
          stdout: `${manifest.version} (commit ${head.slice(0, 7)}, from a clone)\n`,
        });
      }
    },
    TIMEOUT,
  );

  it(
    'prints the bare package version when installed in a project that is itself a git clone',
    async () => {
      const project = makeTempDir('soong-agent-installed-');
      const installed = path.join(project, 'node_modules', '@soong-agent', 'reference-agent');
      fs.mkdirSync(installed, { recursive: true });
      fs.cpSync(path.dirname(CLI), path.join(installed, 'dist'), { recursive: true });
      fs.copyFileSync(
        new URL('../package.json', import.meta.url),
        path.join(installed, 'package.json'),
      );
      // Its dependencies, where an install puts them.
      fs.symlinkSync(
        fileURLToPath(new URL('../node_modules', import.meta.url)),
        path.join(installed, 'node_modules'),
      );
      fs.mkdirSync(path.join(project, '.git'));
      fs.writeFileSync(path.join(project, '.git', 'HEAD'), `${'1'.repeat(40)}\n`);
      const manifest = JSON.parse(
        fs.readFileSync(path.join(installed, 'package.json'), 'utf8'),
      ) as {
        version: string;
      };
      const stdout = execFileSync(
        process.execPath,
        [path.join(installed, 'dist', 'cli.js'), '--version'],
        { cwd: project, encoding: 'utf8' },
      );
      expect(stdout).toBe(`${manifest.version}\n`);
    },
    TIMEOUT,
  );

  it.each(COMMANDS)(
    'shows help listing --home and --project when running %s %s --help',
    async (...command) => {
      const result = await runCli([...command.filter((part) => part !== undefined), '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('--home <dir>');
      expect(result.stdout).toContain('--project <dir>');
    },
    TIMEOUT,
  );

  it.each([['explain'], ['test']])(
    'lists every event of the protocol when running hooks %s --help',
    async (command) => {
      const result = await runCli(['hooks', command, '--help']);
      expect(result.code).toBe(0);
      // commander wraps long descriptions: compare with the whitespace folded.
      expect(result.stdout.replace(/\s+/g, ' ')).toContain(HOOK_EVENTS.join(' | '));
    },
    TIMEOUT,
  );

  it(
    'takes --home and --project on the hooks group as well as after the subcommand, the latter winning',
    async () => {
      const workspace = makeWorkspace({
        home: {
          'hooks.json': hooksJson({ Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] }),
        },
      });
      const where = ['--home', workspace.home, '--project', workspace.project];
      const before = await runCli(['hooks', ...where, 'list', '--json'], { env: workspace.env });
      expect(before.code, before.stderr).toBe(0);
      expect(JSON.parse(before.stdout)).toMatchObject({
        hooks_file: path.join(workspace.home, 'hooks.json'),
        rules: [{ event: 'Stop' }],
      });
      const both = await runCli(
        ['hooks', '--home', path.join(workspace.root, 'elsewhere'), 'list', '--json', ...where],
        { env: workspace.env },
      );
      expect(both.code, both.stderr).toBe(0);
      expect(JSON.parse(both.stdout)).toMatchObject({
        hooks_file: path.join(workspace.home, 'hooks.json'),
      });
    },
    TIMEOUT,
  );

  it(
    'exits 2 when the command, an argument or a flag value is wrong',
    async () => {
      expect((await runCli(['nope'])).code).toBe(2);
      expect((await runCli(['run'])).code).toBe(2);
      expect((await runCli(['run', 'x', '--max-turns', '0'])).code).toBe(2);
      expect((await runCli(['hooks'])).code).toBe(2);
      expect(
        (await runCli(['hooks', 'list', '--project', '/nonexistent/soong-agent-project'])).code,
      ).toBe(2);
    },
    TIMEOUT,
  );
  it.each([
    ['hooks', 'validate'],
    ['hooks', 'list', '--json'],
    ['hooks', 'explain', 'Stop'],
    ['hooks', 'test', 'Stop'],
    ['events'],
    ['run', 'hi', '--model', 'scripted:nowhere.json'],
  ])(
    'exits 2 with one line and creates nothing when --home does not exist (%s %s)',
    async (...command) => {
      const workspace = makeWorkspace();
      const missing = path.join(workspace.root, 'typo-home');
      const result = await runCli([...command, '--home', missing, '--project', workspace.project], {
        env: workspace.env,
      });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(missing);
      expect(result.stderr).toContain('--home');
      expect(fs.existsSync(missing)).toBe(false);
    },
    TIMEOUT,
  );
});

describe('soong-agent run', () => {
  it(
    'exits 2 and says how to choose a model when none is chosen',
    async () => {
      const workspace = makeWorkspace();
      const result = await runCli(
        ['run', 'hi', '--home', workspace.home, '--project', workspace.project],
        { env: workspace.env },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--model scripted:FILE');
      expect(result.stderr).toContain('[model]');
      expect(fs.existsSync(path.join(workspace.home, 'sessions'))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'exits 2 when the provider is unknown or the scripted file is invalid, 1 when the key is missing',
    async () => {
      const workspace = makeWorkspace();
      const base = ['run', 'hi', '--home', workspace.home, '--project', workspace.project];
      const unknown = await runCli([...base, '--model', 'gemini:pro'], { env: workspace.env });
      expect(unknown.code, unknown.stderr).toBe(2);
      expect(unknown.stderr).toContain('unknown model provider "gemini"');
      const openai = await runCli([...base, '--model', 'openai:gpt-4o'], { env: workspace.env });
      expect(openai.code, openai.stderr).toBe(1);
      expect(openai.stderr).toContain('OPENAI_API_KEY');
      expect(openai.stderr.trim().split('\n')).toHaveLength(1);
      const bad = path.join(workspace.root, 'bad.json');
      fs.writeFileSync(bad, JSON.stringify({ turns: [{ tool_calls: [{ input: {} }] }] }));
      const invalid = await runCli([...base, '--model', `scripted:${bad}`], { env: workspace.env });
      expect(invalid.code).toBe(2);
      expect(invalid.stderr).toContain(bad);
      expect(invalid.stderr).toContain('turns[0].tool_calls[0].name');
    },
    TIMEOUT,
  );

  it(
    'exits 2 before anything runs when hooks.json is broken, and runs with --no-hooks',
    async () => {
      const workspace = makeWorkspace({
        home: { 'hooks.json': '{ "version": 1, "hooks": { "PreToolUse": 3 } }' },
      });
      const script = writeScript(workspace.root, [{ text: 'hi' }]);
      const base = [
        'run',
        'hi',
        '--home',
        workspace.home,
        '--project',
        workspace.project,
        '--model',
        `scripted:${script}`,
      ];
      const broken = await runCli(base, { env: workspace.env });
      expect(broken.code).toBe(2);
      expect(broken.stderr).toContain(`${path.join(workspace.home, 'hooks.json')}:1:`);
      expect(fs.existsSync(path.join(workspace.home, 'sessions'))).toBe(false);
      expect((await runCli([...base, '--no-hooks'], { env: workspace.env })).code).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'runs SessionEnd once at the end of every run, with how it ended (completed, max_turns)',
    async () => {
      const workspace = makeWorkspace({
        home: {
          'hooks.json': hooksJson({
            SessionEnd: [
              {
                hooks: [
                  {
                    type: 'command',
                    command: `cat >> "$SOONG_AGENT_HOME/ends.jsonl"; echo >> "$SOONG_AGENT_HOME/ends.jsonl"`,
                  },
                ],
              },
            ],
          }),
        },
      });
      const base = ['--home', workspace.home, '--project', workspace.project];
      const done = writeScript(workspace.root, [{ text: 'hi' }]);
      expect(
        (
          await runCli(['run', 'hi', ...base, '--model', `scripted:${done}`], {
            env: workspace.env,
          })
        ).code,
      ).toBe(0);
      const looping = path.join(workspace.root, 'looping.json');
      fs.writeFileSync(
        looping,
        JSON.stringify({
          turns: [{ tool_calls: [{ name: 'list_dir', input: { path: '.' } }] }, { text: 'never' }],
        }),
      );
      const limited = await runCli(
        ['run', 'hi', ...base, '--model', `scripted:${looping}`, '--max-turns', '1'],
        { env: workspace.env },
      );
      expect(limited.code).toBe(1);
      const ends = fs
        .readFileSync(path.join(workspace.home, 'ends.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { event: string; reason: string });
      expect(ends.map((input) => [input.event, input.reason])).toEqual([
        ['SessionEnd', 'completed'],
        ['SessionEnd', 'max_turns'],
      ]);
    },
    TIMEOUT,
  );

  it(
    'records the head of the error in tool_finished and shows it in the timeline and events when a tool call fails',
    async () => {
      const workspace = makeWorkspace();
      const script = writeScript(workspace.root, [
        { tool_calls: [{ name: 'read_file', input: { path: 'missing.txt' } }] },
        { text: 'It is not there.' },
      ]);
      const base = ['--home', workspace.home, '--project', workspace.project];
      const run = await runCli(['run', 'read it', ...base, '--model', `scripted:${script}`], {
        env: workspace.env,
      });
      expect(run.code, run.stderr).toBe(0);
      const timelineLine = run.stderr.split('\n').find((line) => line.startsWith('tool read_file'));
      expect(timelineLine).toMatch(/ error .*: .*missing\.txt/);
      const events = await runCli(['events', '--json', ...base], { env: workspace.env });
      const finished = parseRecords(events.stdout).find(
        (record) => record.type === 'tool_finished',
      );
      expect(finished).toMatchObject({ type: 'tool_finished', is_error: true });
      expect(finished?.type === 'tool_finished' && finished.error_text).toContain('missing.txt');
      const readable = await runCli(['events', ...base], { env: workspace.env });
      expect(readable.stdout).toContain(timelineLine);
    },
    TIMEOUT,
  );

  it(
    'uses [model] of config.toml with the script relative to the home, answer on stdout and a plain timeline on stderr',
    async () => {
      const workspace = makeWorkspace({
        home: {
          'config.toml': '[model]\nprovider = "scripted"\nscript = "session.json"\n',
          'session.json': JSON.stringify({
            turns: [
              { text: 'looking', tool_calls: [{ name: 'list_dir', input: { path: '.' } }] },
              { text: 'All done.' },
            ],
          }),
        },
        project: { 'a.txt': 'a' },
      });
      const result = await runCli(['run', 'list it'], {
        env: { ...workspace.env, SOONG_AGENT_HOME: workspace.home },
        cwd: workspace.project,
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('All done.\n');
      expect(result.stderr).toContain('tool list_dir . ok');
      expect(result.stderr).toContain('end completed');
      expect(result.stderr).not.toContain('\x1b[');
    },
    TIMEOUT,
  );

  it(
    'passes declarative tool arguments only as data so shell metacharacters run nothing',
    async () => {
      const workspace = makeWorkspace({
        home: {
          'config.toml': [
            '[[tools]]',
            'name = "echo_args"',
            'description = "echo its arguments"',
            `command = "cat > stdin.json; printf '%s|%s' \\"$SOONG_ARG_TARGET\\" \\"$SOONG_ARG_EXTRA_ARG\\""`,
            'risk = "readonly"',
            '[tools.parameters.target]',
            'type = "string"',
            'required = true',
            '[tools.parameters.extra-arg]',
            'type = "string"',
            '',
          ].join('\n'),
        },
      });
      fs.writeFileSync(path.join(workspace.osHome, 'canary'), 'still here');
      const target = '; rm -rf "$HOME"';
      const extra = '$(touch pwned) `touch pwned2`';
      const script = writeScript(workspace.root, [
        { tool_calls: [{ name: 'echo_args', input: { target, 'extra-arg': extra } }] },
        { text: 'ok' },
      ]);
      const result = await runCli(
        [
          'run',
          'go',
          '--home',
          workspace.home,
          '--project',
          workspace.project,
          '--model',
          `scripted:${script}`,
          '--json',
        ],
        { env: workspace.env, cwd: workspace.project },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(fs.readFileSync(path.join(workspace.osHome, 'canary'), 'utf8')).toBe('still here');
      for (const dir of [workspace.project, workspace.root, workspace.osHome]) {
        expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
        expect(fs.existsSync(path.join(dir, 'pwned2'))).toBe(false);
      }
      expect(
        JSON.parse(fs.readFileSync(path.join(workspace.project, 'stdin.json'), 'utf8')),
      ).toEqual({ target, 'extra-arg': extra });
      const records = parseRecords(result.stdout);
      const finished = records.find((record) => record.type === 'tool_finished');
      expect(finished).toMatchObject({
        tool: 'echo_args',
        is_error: false,
        bytes: Buffer.byteLength(`${target}|${extra}`),
      });
    },
    TIMEOUT,
  );

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)(
    'kills the running tool and ends with loop_ended aborted when it gets %s (exit %i)',
    async (signal, exitCode) => {
      const workspace = makeWorkspace();
      const script = writeScript(workspace.root, [
        { tool_calls: [{ name: 'bash', input: { command: 'echo $$ > pid.txt; exec sleep 120' } }] },
      ]);
      const run = startCli(
        [
          'run',
          'go',
          '--home',
          workspace.home,
          '--project',
          workspace.project,
          '--model',
          `scripted:${script}`,
          '--yes',
        ],
        {
          env: workspace.env,
        },
      );
      const pidFile = path.join(workspace.project, 'pid.txt');
      await eventually(
        () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').endsWith('\n'),
      );
      const pid = Number(fs.readFileSync(pidFile, 'utf8'));
      run.child.kill(signal);
      const result = await run.done;
      expect(result.code).toBe(exitCode);
      const [session] = fs.readdirSync(path.join(workspace.home, 'sessions'));
      const records = parseRecords(
        fs.readFileSync(
          path.join(workspace.home, 'sessions', session as string, 'events.jsonl'),
          'utf8',
        ),
      );
      expect(records.at(-1)).toMatchObject({ type: 'loop_ended', reason: 'aborted' });
      expect(() => process.kill(pid, 0)).toThrow();
    },
    TIMEOUT,
  );
});

describe('soong-agent hooks validate', () => {
  it(
    'exits 2 with the precise ConfigError message when hooks.json is broken',
    async () => {
      const broken =
        '{\n  "version": 1,\n  "hooks": {\n    "PreToolUse": [\n      { "matcher": { "tool": "Edit|Write" }, "hooks": [{ "type": "command", "command": "true" }] }\n    ]\n  }\n}\n';
      const workspace = makeWorkspace({ home: { 'hooks.json': broken } });
      const result = await runCli(
        ['hooks', 'validate', '--home', workspace.home, '--project', workspace.project],
        { env: workspace.env },
      );
      expect(result.code).toBe(2);
      const [first] = result.stderr.split('\n');
      expect(
        first?.startsWith(
          `${path.join(workspace.home, 'hooks.json')}:5:30 hooks.PreToolUse[0].matcher.tool: `,
        ),
      ).toBe(true);
      expect(first).toContain('["edit_file", "write_file"]');
    },
    TIMEOUT,
  );

  it(
    'exits 2 when a declarative tool reuses a built-in tool name, for validate and run alike',
    async () => {
      const workspace = makeWorkspace({
        home: {
          'config.toml':
            '[[tools]]\nname = "bash"\ndescription = "shadow"\ncommand = "true"\nrisk = "readonly"\n',
        },
      });
      const base = ['--home', workspace.home, '--project', workspace.project];
      const validate = await runCli(['hooks', 'validate', ...base], { env: workspace.env });
      expect(validate.code).toBe(2);
      expect(validate.stderr).toContain('tools[0].name');
      const script = writeScript(workspace.root, [{ text: 'hi' }]);
      const run = await runCli(['run', 'hi', ...base, '--model', `scripted:${script}`], {
        env: workspace.env,
      });
      expect(run.code).toBe(2);
      expect(fs.existsSync(path.join(workspace.home, 'sessions'))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'exits 0 and warns with a suggestion when a matcher names an unknown tool',
    async () => {
      const workspace = makeWorkspace({
        home: {
          'hooks.json': hooksJson({
            PreToolUse: [
              { matcher: { tool: 'wirte_file' }, hooks: [{ type: 'command', command: 'true' }] },
            ],
          }),
        },
      });
      const result = await runCli(
        ['hooks', 'validate', '--home', workspace.home, '--project', workspace.project],
        { env: workspace.env },
      );
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('"write_file"');
    },
    TIMEOUT,
  );
});

describe('soong-agent hooks validate --strict', () => {
  const rule = (matcher: unknown, command: string) => ({
    matcher,
    hooks: [{ type: 'command', command }],
  });
  const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

  it.each([
    ['an unknown tool name', rule({ tool: 'wirte_file' }, 'true'), {}, 'UNKNOWN_TOOL'],
    ['a missing script', rule('bash', '~/hooks/missing.sh'), {}, 'COMMAND_NOT_FOUND'],
    // The README's own spellings, with the variables the agent sets.
    [
      'a missing $SOONG_AGENT_HOME script',
      rule('bash', '$SOONG_AGENT_HOME/hooks/guard.sh'),
      {},
      'COMMAND_NOT_FOUND',
    ],
    [
      'a missing script given to python3 through $SOONG_AGENT_HOME',
      rule('bash', 'python3 $SOONG_AGENT_HOME/hooks/guard.py'),
      {},
      'COMMAND_NOT_FOUND',
    ],
    ['a bare command not on PATH', rule('bash', 'my-guard --strict'), {}, 'COMMAND_NOT_FOUND'],
    [
      'a script that is not executable',
      rule('bash', '~/hooks/guard.sh'),
      { 'hooks/guard.sh': '#!/bin/sh\n' },
      'COMMAND_NOT_EXECUTABLE',
    ],
  ])(
    'exits 2 with --strict and 0 without, ending with "valid, 1 warning", when hooks.json has %s',
    async (_what, preToolUse, osHomeFiles, code) => {
      const workspace = makeWorkspace({
        home: { 'hooks.json': hooksJson({ PreToolUse: [preToolUse] }) },
      });
      for (const [relative, content] of Object.entries(osHomeFiles)) {
        fs.mkdirSync(path.dirname(path.join(workspace.osHome, relative)), { recursive: true });
        fs.writeFileSync(path.join(workspace.osHome, relative), content, { mode: 0o600 });
      }
      const base = ['hooks', 'validate', '--home', workspace.home, '--project', workspace.project];
      const lenient = await runCli(base, { env: workspace.env });
      expect(lenient.code, lenient.stderr).toBe(0);
      expect(lastLine(lenient.stdout)).toBe('valid, 1 warning');
      const strict = await runCli([...base, '--strict'], { env: workspace.env });
      expect(strict.code).toBe(2);
      expect(lastLine(strict.stdout)).toBe('valid, 1 warning');
      expect(strict.stderr).toContain(code);
    },
    TIMEOUT,
  );

  it(
    'exits 2 with --strict when the agent home from SOONG_AGENT_HOME does not exist',
    async () => {
      const workspace = makeWorkspace();
      const missing = path.join(workspace.root, 'typo-home');
      const env = { ...workspace.env, SOONG_AGENT_HOME: missing };
      const base = ['hooks', 'validate', '--project', workspace.project];
      const lenient = await runCli(base, { env });
      expect(lenient.code).toBe(0);
      expect(lenient.stderr).toContain(missing);
      expect(lastLine(lenient.stdout)).toBe('valid, 1 warning');
      const strict = await runCli([...base, '--strict'], { env });
      expect(strict.code).toBe(2);
      expect(strict.stderr).toContain('AGENT_HOME_MISSING');
      expect(fs.existsSync(missing)).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'exits 0 with --strict when the only warning still lets every hook run and match',
    async () => {
      const workspace = makeWorkspace({
        home: {
          'hooks.json': hooksJson({
            PostToolUse: [{ hooks: [{ type: 'command', command: 'true', on_failure: 'deny' }] }],
          }),
        },
      });
      const result = await runCli(
        ['hooks', 'validate', '--strict', '--home', workspace.home, '--project', workspace.project],
        { env: workspace.env },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain('on_failure');
      expect(lastLine(result.stdout)).toBe('valid, 1 warning');
    },
    TIMEOUT,
  );

  it(
    'ends with "valid, 0 warnings" and exits 0 with --strict when nothing is wrong',
    async () => {
      const workspace = makeWorkspace({
        home: { 'hooks.json': hooksJson({ PreToolUse: [rule('bash', 'true')] }) },
      });
      const result = await runCli(
        ['hooks', 'validate', '--strict', '--home', workspace.home, '--project', workspace.project],
        { env: workspace.env },
      );
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(lastLine(result.stdout)).toBe('valid, 0 warnings');
    },
    TIMEOUT,
  );
});

describe('soong-agent hooks list, explain and test', () => {
  it.each([
    ['list', '--json'],
    ['explain', 'PreToolUse', '--tool', 'bash', '--json'],
    ['test', 'PreToolUse', '--tool', 'bash'],
  ])(
    'print the config warnings on stderr, stdout unchanged, when running hooks %s',
    async (...command) => {
      const workspace = makeWorkspace({
        home: {
          'hooks.json': hooksJson({
            PreToolUse: [
              { matcher: { tool: 'wirte_file' }, hooks: [{ type: 'command', command: 'true' }] },
            ],
          }),
        },
      });
      const result = await runCli(
        ['hooks', ...command, '--home', workspace.home, '--project', workspace.project],
        { env: workspace.env },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(
        /^warning: .*hooks\.PreToolUse\[0\]\.matcher\.tool: .*"write_file"/m,
      );
      expect(result.stdout).not.toContain('warning');
      if (command.includes('--json')) expect(() => JSON.parse(result.stdout)).not.toThrow();
    },
    TIMEOUT,
  );
});

describe('soong-agent hooks list', () => {
  it(
    'escapes control characters in hook names, commands and working dirs when printing for a terminal',
    async () => {
      const workspace = makeWorkspace({
        home: {
          'hooks.json': hooksJson({
            PreToolUse: [
              {
                hooks: [
                  {
                    name: 'evil\u001b]52;c;cGF5bG9hZA==\u0007\u001b[2J\u202e',
                    type: 'command',
                    command: 'true # \u001b[31mred\u009b',
                    working_dir: 'dir\u001b[1m',
                  },
                ],
              },
            ],
          }),
        },
      });
      const result = await runCli(
        ['hooks', 'list', '--home', workspace.home, '--project', workspace.project],
        { env: workspace.env },
      );
      expect(result.code, result.stderr).toBe(0);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: checking that none get through
      expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
      expect(result.stdout).toContain('evil\\x1b]52;c;cGF5bG9hZA==\\x07\\x1b[2J\\u202e');
      expect(result.stdout).toContain('true # \\x1b[31mred\\x9b');
      expect(result.stdout).toContain('working_dir=dir\\x1b[1m');
    },
    TIMEOUT,
  );

  it(
    'prints rules with hook ids, timeout, on_failure, protocol and mode when given --json',
    async () => {
      const workspace = makeWorkspace({
        home: {
          'hooks.json': hooksJson({
            PreToolUse: [
              {
                matcher: 'bash',
                hooks: [
                  { type: 'command', command: 'true' },
                  {
                    name: 'named',
                    type: 'command',
                    command: 'true',
                    timeout: 5,
                    on_failure: 'deny',
                    protocol: 'claude-code',
                  },
                  { name: 'warm', type: 'command', command: 'true', mode: 'worker' },
                ],
              },
            ],
          }),
        },
      });
      const result = await runCli(
        ['hooks', 'list', '--json', '--home', workspace.home, '--project', workspace.project],
        { env: workspace.env },
      );
      expect(result.code).toBe(0);
      const listed = JSON.parse(result.stdout) as {
        rules: {
          event: string;
          hooks: {
            id: string;
            timeout: number;
            on_failure: string;
            protocol: string;
            mode: string;
          }[];
        }[];
      };
      expect(listed.rules).toHaveLength(1);
      expect(
        listed.rules[0]?.hooks.map((hook) => [
          hook.id,
          hook.timeout,
          hook.on_failure,
          hook.protocol,
          hook.mode,
        ]),
      ).toEqual([
        ['PreToolUse[0][0]', 30, 'ignore', 'soong', 'spawn'],
        ['named', 5, 'deny', 'claude-code', 'spawn'],
        ['warm', 30, 'ignore', 'soong', 'worker'],
      ]);
      const text = await runCli(
        ['hooks', 'list', '--home', workspace.home, '--project', workspace.project],
        { env: workspace.env },
      );
      expect(text.stdout).toContain('named  timeout=5s  on_failure=deny  protocol=claude-code\n');
      expect(text.stdout).toContain('warm  timeout=30s  on_failure=ignore  mode=worker\n');
    },
    TIMEOUT,
  );
});

describe('soong-agent hooks explain', () => {
  it(
    'reports per rule whether it matched or which criterion failed',
    async () => {
      const workspace = makeWorkspace({
        home: {
          'hooks.json': hooksJson({
            PreToolUse: [
              { matcher: { tool: 'write_file' }, hooks: [{ type: 'command', command: 'true' }] },
              { matcher: { path_prefix: 'src' }, hooks: [{ type: 'command', command: 'true' }] },
              {
                matcher: { tag: 'readonly', path_prefix: 'docs' },
                hooks: [{ type: 'command', command: 'true' }],
              },
            ],
          }),
        },
      });
      const result = await runCli(
        [
          'hooks',
          'explain',
          'PreToolUse',
          '--tool',
          'read_file',
          '--path',
          'src/a.ts',
          '--json',
          '--home',
          workspace.home,
          '--project',
          workspace.project,
        ],
        { env: workspace.env },
      );
      expect(result.code).toBe(0);
      const explained = JSON.parse(result.stdout) as {
        rules: { matched: boolean; criterion?: string }[];
      };
      expect(explained.rules.map((rule) => (rule.matched ? 'matched' : rule.criterion))).toEqual([
        'tool',
        'matched',
        'path_prefix',
      ]);
    },
    TIMEOUT,
  );
});

describe('soong-agent hooks test', () => {
  const home = {
    'hooks.json': hooksJson({
      SessionStart: [{ hooks: [{ type: 'command', command: denyCommand('observe only') }] }],
      PreToolUse: [
        {
          matcher: { tag: 'test' },
          hooks: [
            { name: 'capture', type: 'command', command: 'cat > "$SOONG_AGENT_HOME/input.json"' },
          ],
        },
        {
          matcher: { tool: 'write_file', path_prefix: 'src' },
          hooks: [{ name: 'guard', type: 'command', command: denyCommand('src is frozen') }],
        },
      ],
    }),
    'config.toml':
      '[[tools]]\nname = "run_tests"\ndescription = "tests"\ncommand = "true"\nrisk = "readonly"\ntags = ["test"]\n',
  };

  it(
    'gives the hook a summary and a readable input_artifact_ref when --input is larger than inline_result_bytes',
    async () => {
      const workspace = makeWorkspace({
        home: {
          'config.toml': '[hooks]\ninline_result_bytes = 1024\n',
          'hooks.json': hooksJson({
            PreToolUse: [
              {
                hooks: [
                  {
                    name: 'peek',
                    type: 'command',
                    // Denies with what it saw: the truncation flag and the artifact's size on disk.
                    command:
                      'node -e \'const i=JSON.parse(require("fs").readFileSync(0,"utf8")).tool;' +
                      'const n=require("fs").statSync(i.input_artifact_ref.path).size;' +
                      'console.log(JSON.stringify({decision:"deny",reason:"truncated="+i.input_truncated+" artifact="+n}))\'',
                  },
                ],
              },
            ],
          }),
        },
      });
      const content = 'x'.repeat(50_000);
      const input = JSON.stringify({ path: 'notes.txt', content });
      const result = await runCli(
        [
          'hooks',
          'test',
          'PreToolUse',
          '--tool',
          'write_file',
          '--input',
          input,
          '--home',
          workspace.home,
          '--project',
          workspace.project,
        ],
        { env: workspace.env },
      );
      expect(result.code).toBe(3);
      expect(result.stdout).toContain(`truncated=true artifact=${Buffer.byteLength(input)}`);
    },
    TIMEOUT,
  );

  it(
    'exits 3 when a PreToolUse deny stands and 0 when no hook denies',
    async () => {
      const workspace = makeWorkspace({ home });
      const base = ['--home', workspace.home, '--project', workspace.project];
      const denied = await runCli(
        [
          'hooks',
          'test',
          'PreToolUse',
          '--tool',
          'write_file',
          '--input',
          '{"path":"src/a.ts","content":""}',
          ...base,
        ],
        {
          env: workspace.env,
        },
      );
      expect(denied.code).toBe(3);
      expect(denied.stdout).toContain('src is frozen');
      const allowed = await runCli(
        [
          'hooks',
          'test',
          'PreToolUse',
          '--tool',
          'write_file',
          '--input',
          '{"path":"docs/a.md","content":""}',
          ...base,
        ],
        {
          env: workspace.env,
        },
      );
      expect(allowed.code).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'exits 0 when the deny comes from an observe-only event',
    async () => {
      const workspace = makeWorkspace({ home });
      const result = await runCli(
        ['hooks', 'test', 'SessionStart', '--home', workspace.home, '--project', workspace.project],
        { env: workspace.env },
      );
      expect(result.code).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'builds the input like a session with risk and tags of a declarative tool and the extra --path',
    async () => {
      const workspace = makeWorkspace({ home });
      const result = await runCli(
        [
          'hooks',
          'test',
          'PreToolUse',
          '--tool',
          'run_tests',
          '--path',
          'lib/x.ts',
          '--home',
          workspace.home,
          '--project',
          workspace.project,
        ],
        { env: workspace.env },
      );
      expect(result.code).toBe(0);
      const input = JSON.parse(
        fs.readFileSync(path.join(workspace.home, 'input.json'), 'utf8'),
      ) as Record<string, unknown>;
      expect(input).toMatchObject({
        event: 'PreToolUse',
        project_dir: workspace.project,
        agent_home: workspace.home,
        tool: {
          name: 'run_tests',
          risk: 'readonly',
          paths: [path.join(workspace.project, 'lib/x.ts')],
        },
      });
      expect((input.tool as { tags: string[] }).tags).toEqual(
        expect.arrayContaining(['readonly', 'test']),
      );
    },
    TIMEOUT,
  );

  it(
    'prints each hook run with its decision or failure kind, exit code, duration, reason and output tails',
    async () => {
      const workspace = makeWorkspace({
        home: {
          'hooks.json': hooksJson({
            Stop: [
              {
                hooks: [
                  {
                    name: 'talk',
                    type: 'command',
                    command: `cat >/dev/null; echo hello >&2; echo '{"decision":"allow","logs":["a log line"]}'`,
                  },
                  {
                    name: 'broken',
                    type: 'command',
                    command: 'cat >/dev/null; echo junk; echo boom >&2; exit 4',
                    on_failure: 'deny',
                  },
                  { name: 'never', type: 'command', command: 'echo never-ran >&2' },
                ],
              },
            ],
          }),
        },
      });
      const result = await runCli(
        ['hooks', 'test', 'Stop', '--home', workspace.home, '--project', workspace.project],
        { env: workspace.env },
      );
      expect(result.code, result.stderr).toBe(3);
      const out = result.stdout;
      expect(out).toMatch(/^hook talk Stop {2}allow {2}exit 0 · [\d.]+m?s$/m);
      expect(out).toContain('  logs: a log line');
      expect(out).toMatch(
        /^hook broken Stop {2}failed: exit_code \(on_failure=deny → deny\) {2}exit 4 · /m,
      );
      expect(out).toContain('  reason: hook broken failed: exit_code');
      expect(out).toMatch(/stdout \(5 B\):\n {2}│ junk\n/);
      expect(out).toMatch(/stderr \(5 B\):\n {2}│ boom\n/);
      expect(out).toMatch(/stderr \(6 B\):\n {2}│ hello\n/);
      // the first deny decides: the third hook never ran
      expect(out).not.toContain('never');
      expect(out.trimEnd().split('\n').at(-1)).toBe(
        'outcome: deny stands (hook broken): hook broken failed: exit_code → exit 3',
      );
    },
    TIMEOUT,
  );

  it(
    'exits 2 with a suggestion when the event name is misspelt',
    async () => {
      const workspace = makeWorkspace({ home });
      const result = await runCli(['hooks', 'test', 'PreTooluse', '--home', workspace.home], {
        env: workspace.env,
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('"PreToolUse"');
    },
    TIMEOUT,
  );
});

describe('soong-agent events', () => {
  it(
    'prints the latest session readably, as JSON lines with --json, and reports a torn last line',
    async () => {
      const workspace = makeWorkspace();
      const script = writeScript(workspace.root, [{ text: 'hello there' }]);
      const base = ['--home', workspace.home, '--project', workspace.project];
      expect(
        (
          await runCli(['run', 'hi', ...base, '--model', `scripted:${script}`], {
            env: workspace.env,
          })
        ).code,
      ).toBe(0);
      const readable = await runCli(['events', ...base], { env: workspace.env });
      expect(readable.code).toBe(0);
      expect(readable.stdout).toContain('model turn 0 → no tool calls');
      const json = await runCli(['events', '--json', ...base], { env: workspace.env });
      const records = parseRecords(json.stdout);
      expect(records.at(-1)).toMatchObject({ type: 'loop_ended', reason: 'completed' });
      const [session] = fs.readdirSync(path.join(workspace.home, 'sessions'));
      fs.appendFileSync(
        path.join(workspace.home, 'sessions', session as string, 'events.jsonl'),
        '{"seq": 99, "ty',
      );
      const torn = await runCli(['events', session as string, '--json', ...base], {
        env: workspace.env,
      });
      expect(torn.code).toBe(0);
      expect(parseRecords(torn.stdout)).toEqual(records);
      expect(torn.stderr).toContain('torn');
    },
    TIMEOUT,
  );

  it(
    'says a SIGKILLed session did not end, names the unfinished hook and tool, prints the records and exits 1',
    async () => {
      const workspace = makeWorkspace({ project: { 'a.txt': 'a' } });
      const pidFile = path.join(workspace.root, 'hook.pid');
      fs.writeFileSync(
        path.join(workspace.home, 'hooks.json'),
        hooksJson({
          PreToolUse: [
            {
              hooks: [
                {
                  type: 'command',
                  command: `echo $$ > '${pidFile}'; exec sleep 600`,
                  name: 'slow-guard',
                },
              ],
            },
          ],
        }),
      );
      const script = writeScript(workspace.root, [
        { text: 'x', tool_calls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
        { text: 'done' },
      ]);
      const base = ['--home', workspace.home, '--project', workspace.project];
      const agent = startCli(['run', 'go', '--yes', '--model', `scripted:${script}`, ...base], {
        env: workspace.env,
      });
      // Wait until the hook runs, then kill the agent outright.
      await eventually(
        () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '',
      );
      agent.child.kill('SIGKILL');
      await agent.done;
      // The hook dies with the agent: what spawned it (the runner's posix spawner, or its spawn
      // helper) kills its group when the agent goes. Killed here too, in case that is not yet.
      const hook = Number(fs.readFileSync(pidFile, 'utf8'));
      try {
        process.kill(hook, 'SIGKILL');
      } catch {
        // gone already
      }
      await eventually(() => !isAlive(hook));
      const json = await runCli(['events', '--json', ...base], { env: workspace.env });
      expect(json.code).toBe(1);
      const records = parseRecords(json.stdout);
      expect(records.map((record) => record.type)).toContain('hook_started');
      expect(records.map((record) => record.type)).not.toContain('loop_ended');
      expect(json.stderr).toContain('loop_ended');
      expect(json.stderr).toContain('tool read_file (');
      expect(json.stderr).toContain('hook slow-guard (PreToolUse)');
      const readable = await runCli(['events', ...base], { env: workspace.env });
      expect(readable.code).toBe(1);
      expect(readable.stderr).toContain('hook slow-guard (PreToolUse)');
    },
    TIMEOUT,
  );

  it(
    'exits 1 when the home has no sessions',
    async () => {
      const workspace = makeWorkspace();
      expect(
        (await runCli(['events', '--home', workspace.home], { env: workspace.env })).code,
      ).toBe(1);
    },
    TIMEOUT,
  );
});
