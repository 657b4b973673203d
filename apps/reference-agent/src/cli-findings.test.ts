import { isUtf8 } from 'node:buffer';
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI, makeWorkspace, runCli, runShell, writeScript } from './test-helpers/cli.js';

// What new users tripped on, each through the real CLI in a temp agent home.

const TIMEOUT = 60_000;
const PTY_CHAT = fileURLToPath(new URL('./test-helpers/pty-chat.py', import.meta.url));

function hooksJson(hooks: Record<string, unknown>): string {
  return `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`;
}

// A tool matcher that is a regex: an error with its line, column, JSON path and fix.
const BROKEN_HOOKS = `{
  "version": 1,
  "hooks": {
    "PreToolUse": [
      { "matcher": { "tool": "Edit|Write" }, "hooks": [ { "type": "command", "command": "true" } ] }
    ]
  }
}
`;

describe('a broken hooks.json', () => {
  it(
    'makes run exit 2 with the precise error and one line with the same command and --no-hooks, which runs',
    async () => {
      const workspace = makeWorkspace({ home: { 'hooks.json': BROKEN_HOOKS } });
      const script = writeScript(workspace.root, [{ text: 'done without hooks' }]);
      const args = [
        'run',
        "it's broken",
        '--home',
        workspace.home,
        '--project',
        workspace.project,
        '--model',
        `scripted:${script}`,
      ];
      const broken = await runCli(args, { env: workspace.env });
      expect(broken.code).toBe(2);
      const lines = broken.stderr.trimEnd().split('\n');
      expect(lines[0]).toContain(`${path.join(workspace.home, 'hooks.json')}:5:`);
      expect(lines[0]).toContain('hooks.PreToolUse[0].matcher.tool');
      expect(lines[0]).toContain('["edit_file", "write_file"]');
      const hint = lines.at(-1) ?? '';
      expect(lines).toHaveLength(2);
      expect(hint).toMatch(/^to run without hooks until hooks\.json is fixed \(--no-hooks\): /);
      expect(fs.existsSync(path.join(workspace.home, 'sessions'))).toBe(false);
      // The line is a command line the user can paste as it is.
      const command = hint.slice(hint.indexOf('): ') + 3);
      expect(command).toContain(' run --no-hooks ');
      const rerun = await runShell(command, { env: workspace.env });
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(rerun.stdout).toBe('done without hooks\n');
      expect(rerun.stderr).toContain('hooks disabled (--no-hooks)');
    },
    TIMEOUT,
  );

  it(
    'makes chat on a terminal exit 2 with the error and the chat --no-hooks line',
    async () => {
      const workspace = makeWorkspace({ home: { 'hooks.json': BROKEN_HOOKS } });
      const { stdout } = await promisify(execFile)(
        'python3',
        [
          PTY_CHAT,
          '[]',
          '--',
          process.execPath,
          CLI,
          'chat',
          '--home',
          workspace.home,
          '--project',
          workspace.project,
        ],
        { env: { ...workspace.env, TERM: 'xterm' } },
      );
      const { code, output } = JSON.parse(stdout) as { code: number; output: string };
      expect(code).toBe(2);
      expect(output).toContain(`${path.join(workspace.home, 'hooks.json')}:5:`);
      expect(output).toMatch(
        /to run without hooks until hooks\.json is fixed \(--no-hooks\): node \S+ chat --no-hooks --home /,
      );
    },
    TIMEOUT,
  );

  it(
    'gets no --no-hooks line from commands without that flag, nor when the error is in config.toml',
    async () => {
      const workspace = makeWorkspace({ home: { 'hooks.json': BROKEN_HOOKS } });
      const where = ['--home', workspace.home, '--project', workspace.project];
      for (const args of [
        ['hooks', 'validate'],
        ['hooks', 'list'],
        ['hooks', 'explain', 'PreToolUse'],
      ]) {
        const result = await runCli([...args, ...where], { env: workspace.env });
        expect(result.code).toBe(2);
        expect(result.stderr).toContain('hooks.PreToolUse[0].matcher.tool');
        expect(result.stderr).not.toContain('--no-hooks');
      }
      const toml = makeWorkspace({
        home: {
          'config.toml': '[hooks]\non_failure = "sometimes"\n',
          'hooks.json': hooksJson({}),
        },
      });
      const script = writeScript(toml.root, [{ text: 'hi' }]);
      const result = await runCli(
        [
          'run',
          'hi',
          '--home',
          toml.home,
          '--project',
          toml.project,
          '--model',
          `scripted:${script}`,
        ],
        { env: toml.env },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(path.join(toml.home, 'config.toml'));
      // --no-hooks would not help: config.toml is read either way.
      expect(result.stderr).not.toContain('--no-hooks');
    },
    TIMEOUT,
  );
});

describe('hooks explain on a tool event without --tool', () => {
  const command = [{ type: 'command', command: 'true' }];
  const rules = hooksJson({
    PreToolUse: [
      { matcher: { tool: 'bash' }, hooks: command },
      { matcher: { tool: ['write_file', 'edit_file'], path_prefix: 'src' }, hooks: command },
      { matcher: { path_prefix: 'docs' }, hooks: command },
      { matcher: { tag: 'readonly' }, hooks: command },
      { matcher: { mcp_server: 'github' }, hooks: command },
      { hooks: command },
    ],
  });

  it(
    'says once that --tool decides tool matchers and shows per rule what is decided without it',
    async () => {
      const workspace = makeWorkspace({ home: { 'hooks.json': rules } });
      const where = ['--home', workspace.home, '--project', workspace.project];
      const result = await runCli(
        ['hooks', 'explain', 'PreToolUse', '--path', 'docs/guide.md', ...where],
        { env: workspace.env },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).not.toContain('(no tool)');
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines.filter((line) => line.includes('give --tool NAME to evaluate'))).toHaveLength(1);
      expect(lines[0]).toMatch(/^note: PreToolUse rules with a tool, tag or mcp_server matcher/);
      expect(lines.slice(1)).toEqual([
        'PreToolUse[0]  depends on --tool: matched for bash → runs PreToolUse[0][0]',
        `PreToolUse[1]  not matched whatever the tool: path_prefix (expected ${path.join(workspace.project, 'src')}, got ${path.join(workspace.project, 'docs', 'guide.md')})`,
        'PreToolUse[2]  matched → runs PreToolUse[2][0]',
        'PreToolUse[3]  depends on --tool: matched for read_file, list_dir, grep → runs PreToolUse[3][0]',
        'PreToolUse[4]  depends on --tool: matches no tool of this agent (mcp_server expects mcp__github__*); for a tool of another host give --tool NAME --risk CLASS',
        'PreToolUse[5]  matched → runs PreToolUse[5][0]',
      ]);
    },
    TIMEOUT,
  );

  it(
    'gives the same in --json, and with --tool evaluates every rule for that tool with no note',
    async () => {
      const workspace = makeWorkspace({ home: { 'hooks.json': rules } });
      const where = ['--home', workspace.home, '--project', workspace.project];
      const json = await runCli(['hooks', 'explain', 'PreToolUse', '--json', ...where], {
        env: workspace.env,
      });
      expect(json.code, json.stderr).toBe(0);
      const explained = JSON.parse(json.stdout) as {
        note?: string;
        rules: { matched: boolean; needs_tool?: boolean; matched_tools?: string[] }[];
      };
      expect(explained.note).toContain('--tool NAME');
      expect(explained.rules.map((rule) => rule.matched_tools ?? null)).toEqual([
        ['bash'],
        [],
        null,
        ['read_file', 'list_dir', 'grep'],
        [],
        null,
      ]);
      expect(explained.rules.map((rule) => rule.needs_tool === true)).toEqual([
        true,
        true,
        false,
        true,
        true,
        false,
      ]);
      const withTool = await runCli(
        ['hooks', 'explain', 'PreToolUse', '--tool', 'bash', ...where],
        { env: workspace.env },
      );
      expect(withTool.code, withTool.stderr).toBe(0);
      expect(withTool.stdout).not.toContain('note:');
      expect(withTool.stdout.split('\n')[0]).toBe('PreToolUse[0]  matched → runs PreToolUse[0][0]');
      expect(withTool.stdout).toContain(
        'PreToolUse[1]  not matched: tool (expected write_file | edit_file, got bash)',
      );
    },
    TIMEOUT,
  );
});

// Hooks that print bytes that are not UTF-8 (a Latin-1 "é", a lone 0xff): in stdout's JSON reason
// and logs, on stderr, from a worker, and as a Claude Code hook's exit-2 reason on stderr.
const LATIN1_HOOK =
  "cat >/dev/null; printf 'stderr \\377 \\351t\\351\\n' >&2; " +
  'printf \'{"decision":"deny","reason":"caf\\351 \\377","logs":["log \\376"]}\'';
const LATIN1_WORKER = `import readline from 'node:readline';
for await (const line of readline.createInterface({ input: process.stdin })) {
  const { id } = JSON.parse(line);
  process.stderr.write(Buffer.from([0x77, 0x20, 0xff, 0x0a]));
  const answer = '{"id":' + id + ',"output":{"decision":"deny","reason":"worker ';
  process.stdout.write(Buffer.concat([Buffer.from(answer), Buffer.from([0xe9]), Buffer.from('"}}\\n')]));
}
`;

function latin1Workspace(hook: Record<string, unknown>) {
  return makeWorkspace({
    home: {
      'worker.mjs': LATIN1_WORKER,
      'hooks.json': hooksJson({
        PreToolUse: [{ matcher: 'bash', hooks: [{ name: 'latin1', type: 'command', ...hook }] }],
      }),
    },
  });
}

// `hooks test PreToolUse` for a bash call, in the workspace's home and project.
function hooksTestBash(workspace: ReturnType<typeof makeWorkspace>) {
  return runCli(
    [
      'hooks',
      'test',
      'PreToolUse',
      '--tool',
      'bash',
      '--input',
      '{"command":"ls"}',
      '--home',
      workspace.home,
      '--project',
      workspace.project,
    ],
    { env: workspace.env },
  );
}

describe('hook output that is not UTF-8', () => {
  it(
    'shows each invalid byte as \\xHH in hooks test: reason, logs and stderr',
    async () => {
      const workspace = latin1Workspace({ command: LATIN1_HOOK });
      const result = await hooksTestBash(workspace);
      expect(result.code, result.stderr).toBe(3);
      expect(result.stdout).not.toContain('\uFFFD');
      expect(result.stdout).toContain('caf\\xe9 \\xff');
      expect(result.stdout).toContain('log \\xfe');
      expect(result.stdout).toContain('stderr \\xff \\xe9t\\xe9');
    },
    TIMEOUT,
  );

  it(
    'keeps the bytes escaped in the timeline, in events and in events.jsonl (valid UTF-8 JSON)',
    async () => {
      const workspace = latin1Workspace({ command: LATIN1_HOOK });
      const script = writeScript(workspace.root, [
        { tool_calls: [{ name: 'bash', input: { command: 'ls' } }] },
        { text: 'denied' },
      ]);
      const where = ['--home', workspace.home, '--project', workspace.project];
      const run = await runCli(['run', 'go', '--yes', '--model', `scripted:${script}`, ...where], {
        env: workspace.env,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).not.toContain('\uFFFD');
      expect(run.stderr).toContain('denied by hook latin1: caf\\xe9 \\xff');
      expect(run.stderr).toContain('stderr: stderr \\xff \\xe9t\\xe9');
      expect(run.stderr).toContain('logs: log \\xfe');
      const events = await runCli(['events', ...where], { env: workspace.env });
      expect(events.code, events.stderr).toBe(0);
      expect(events.stdout).not.toContain('\uFFFD');
      expect(events.stdout).toContain('caf\\xe9 \\xff');
      expect(events.stdout).toContain('stderr \\xff \\xe9t\\xe9');
      const [session] = fs.readdirSync(path.join(workspace.home, 'sessions'));
      const log = fs.readFileSync(
        path.join(workspace.home, 'sessions', session ?? '', 'events.jsonl'),
      );
      expect(isUtf8(log)).toBe(true);
      const records = log
        .toString('utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(records.find((record) => record.type === 'hook_denied')).toMatchObject({
        reason: 'caf\\xe9 \\xff',
      });
      expect(
        records.filter((record) => record.type === 'hook_log').map((record) => record.message),
      ).toEqual(expect.arrayContaining(['log \\xfe', 'stderr \\xff \\xe9t\\xe9\n']));
    },
    TIMEOUT,
  );

  it(
    'escapes the bytes of a worker hook and of a Claude Code hook that blocks with exit 2',
    async () => {
      const worker = latin1Workspace({
        command: 'node "$SOONG_AGENT_HOME/worker.mjs"',
        mode: 'worker',
      });
      const claude = latin1Workspace({
        command: "cat >/dev/null; printf 'blocked \\377' >&2; exit 2",
        protocol: 'claude-code',
      });
      for (const [workspace, reason, stderr] of [
        [worker, 'worker \\xe9', 'w \\xff'],
        [claude, 'blocked \\xff', 'blocked \\xff'],
      ] as const) {
        const result = await hooksTestBash(workspace);
        expect(result.code, result.stdout + result.stderr).toBe(3);
        expect(result.stdout).not.toContain('\uFFFD');
        expect(result.stdout).toContain(reason);
        expect(result.stdout).toContain(stderr);
      }
    },
    TIMEOUT,
  );
});

// A workspace whose root is a git repository: the project dir lies below the git root.
function workspaceInRepository(files: Parameters<typeof makeWorkspace>[0]) {
  const workspace = makeWorkspace(files);
  execFileSync('git', ['init', '-q', workspace.root]);
  fs.mkdirSync(path.join(workspace.root, 'scripts'));
  return workspace;
}

const gitRootLine = (workspace: { root: string; project: string }) =>
  `the project dir ${workspace.project} lies below the git root ${workspace.root}: to work on the whole repository, make it the project dir (--project ${workspace.root})`;

describe('a path refused as outside a project dir below a git root', () => {
  it(
    'gets a hint naming the git root and --project for a write tool, in the timeline, events and the result',
    async () => {
      const turns = [
        {
          tool_calls: [
            { name: 'write_file', input: { path: '../shared/notes.txt', content: 'x' } },
          ],
        },
        { text: 'refused' },
      ];
      const workspace = workspaceInRepository({});
      const script = writeScript(workspace.root, turns);
      const where = ['--home', workspace.home, '--project', workspace.project];
      const run = await runCli(['run', 'go', '--yes', '--model', `scripted:${script}`, ...where], {
        env: workspace.env,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('is outside the project dir');
      expect(run.stderr).toContain(`    hint ${gitRootLine(workspace)}\n`);
      expect(fs.existsSync(path.join(workspace.root, 'shared'))).toBe(false);
      const events = await runCli(['events', ...where], { env: workspace.env });
      expect(events.stdout).toContain(`    hint ${gitRootLine(workspace)}\n`);
      const json = await runCli(['events', '--json', ...where], { env: workspace.env });
      const finished = json.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; error_text?: string })
        .find((record) => record.type === 'tool_finished');
      expect(finished?.error_text).toContain(`\nhint: ${gitRootLine(workspace)}`);
      // Without a repository above the project dir there is nothing to hint at.
      const plain = makeWorkspace({});
      const plainScript = writeScript(plain.root, turns);
      const alone = await runCli(
        [
          'run',
          'go',
          '--yes',
          '--model',
          `scripted:${plainScript}`,
          '--home',
          plain.home,
          '--project',
          plain.project,
        ],
        { env: plain.env },
      );
      expect(alone.code, alone.stderr).toBe(0);
      expect(alone.stderr).toContain('is outside the project dir');
      expect(alone.stderr).not.toContain('hint');
    },
    TIMEOUT,
  );

  it(
    'gives a line of its own only to the real hint, not to a tool output that fakes one',
    async () => {
      const workspace = workspaceInRepository({});
      const fake = `hint: ${gitRootLine({ root: '/', project: workspace.project })}`;
      const script = writeScript(workspace.root, [
        {
          tool_calls: [
            { name: 'bash', input: { command: `printf 'boom\\n%s\\n' '${fake}'; exit 1` } },
          ],
        },
        { text: 'done' },
      ]);
      const where = ['--home', workspace.home, '--project', workspace.project];
      const run = await runCli(['run', 'go', '--yes', '--model', `scripted:${script}`, ...where], {
        env: workspace.env,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/tool bash .* error .*: .*boom hint: the project dir/);
      expect(run.stderr).not.toMatch(/^ {4}hint /m);
    },
    TIMEOUT,
  );

  it(
    "gets the hint in the config error of a hook's working_dir outside the project",
    async () => {
      const workspace = workspaceInRepository({
        home: {
          'hooks.json': hooksJson({
            PreToolUse: [
              { hooks: [{ type: 'command', command: 'true', working_dir: '../scripts' }] },
            ],
          }),
        },
      });
      const where = ['--home', workspace.home, '--project', workspace.project];
      const result = await runCli(['hooks', 'validate', ...where], { env: workspace.env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('hooks.PreToolUse[0].hooks[0].working_dir');
      expect(result.stderr).toContain(`; or ${gitRootLine(workspace)}`);
    },
    TIMEOUT,
  );

  it(
    "gets the hint when the runner refuses a hook's working dir that became a link out of the project",
    async () => {
      // The link does not exist when the config is loaded (so it passes as written); SessionStart
      // makes it, and the runner, resolving it, refuses the dir it leads to.
      const workspace = workspaceInRepository({
        home: {
          'hooks.json': hooksJson({
            SessionStart: [
              {
                hooks: [
                  { type: 'command', command: 'ln -s ../scripts "$SOONG_AGENT_PROJECT_DIR/link"' },
                ],
              },
            ],
            PreToolUse: [
              {
                hooks: [{ name: 'linked', type: 'command', command: 'true', working_dir: 'link' }],
              },
            ],
          }),
        },
      });
      const script = writeScript(workspace.root, [
        { tool_calls: [{ name: 'read_file', input: { path: 'link' } }] },
        { text: 'done' },
      ]);
      const where = ['--home', workspace.home, '--project', workspace.project];
      const run = await runCli(['run', 'go', '--yes', '--model', `scripted:${script}`, ...where], {
        env: workspace.env,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(
        /hook linked PreToolUse failed:cwd_invalid .*outside allowedRoots/,
      );
      expect(run.stderr).toContain(`    hint ${gitRootLine(workspace)}\n`);
    },
    TIMEOUT,
  );
});
