import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, runCli } from './test-helpers/cli.js';

const TIMEOUT = 60_000;

// Writes what the hook got on stdin (and, for Claude Code hooks, the transcript it names) to the
// agent home, then stays silent.
const CAPTURE =
  'node -e \'const fs=require("fs");const i=JSON.parse(fs.readFileSync(0,"utf8"));' +
  'const t=i.transcript_path?fs.readFileSync(i.transcript_path,"utf8"):null;' +
  'fs.writeFileSync(process.env.SOONG_AGENT_HOME+"/"+process.argv[1]+".json",JSON.stringify({input:i,transcript:t}))\'';

function workspaceWith(protocol: 'soong' | 'claude-code', extraToml = '') {
  const hook = (name: string) => ({
    type: 'command',
    command: `${CAPTURE} ${name}`,
    protocol,
  });
  return makeWorkspace({
    home: {
      'config.toml': extraToml,
      'hooks.json': JSON.stringify({
        version: 1,
        hooks: {
          Stop: [{ hooks: [hook('stop')] }],
          PostToolUse: [{ hooks: [hook('post')] }],
          UserPromptSubmit: [{ hooks: [hook('prompt')] }],
        },
      }),
    },
  });
}

async function hooksTest(workspace: ReturnType<typeof makeWorkspace>, args: string[]) {
  return runCli(
    ['hooks', 'test', ...args, '--home', workspace.home, '--project', workspace.project],
    {
      env: workspace.env,
    },
  );
}

function captured(workspace: ReturnType<typeof makeWorkspace>, name: string) {
  return JSON.parse(fs.readFileSync(path.join(workspace.home, `${name}.json`), 'utf8')) as {
    input: Record<string, unknown>;
    transcript: string | null;
  };
}

describe('soong-agent hooks test flags', () => {
  it(
    'exits 2 naming the flag when a flag does not apply to the event',
    async () => {
      const workspace = workspaceWith('soong');
      const cases: [string[], string][] = [
        [
          ['SessionStart', '--prompt', 'x'],
          '--prompt does not apply to SessionStart; SessionStart takes no flags',
        ],
        [
          ['PreToolUse', '--tool', 'bash', '--stop', '{}'],
          '--stop does not apply to PreToolUse; PreToolUse takes --tool, --input, --path, --risk',
        ],
        [
          ['PreToolUse', '--tool', 'bash', '--result', 'x'],
          '--result does not apply to PreToolUse',
        ],
        [
          ['Stop', '--result-error'],
          '--result-error does not apply to Stop; Stop takes --stop, --prompt',
        ],
        [['UserPromptSubmit', '--path', 'src'], '--path does not apply to UserPromptSubmit'],
        [['Stop', '--tool', 'bash'], '--tool does not apply to Stop'],
      ];
      for (const [args, message] of cases) {
        const result = await hooksTest(workspace, args);
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr).toContain(message);
      }
      expect(fs.existsSync(path.join(workspace.home, 'stop.json'))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'exits 2 for a --stop that is not a valid object of known keys',
    async () => {
      const workspace = workspaceWith('soong');
      for (const [stop, message] of [
        ['{', '--stop is not valid JSON'],
        ['[]', '--stop must be a JSON object'],
        ['{"count":1}', 'unknown key "count"'],
        ['{"prevented_count":-1}', 'prevented_count must be an integer >= 0'],
        ['{"last_assistant_message":1}', 'last_assistant_message must be a string'],
      ] as const) {
        const result = await hooksTest(workspace, ['Stop', '--stop', stop]);
        expect(result.code, stop).toBe(2);
        expect(result.stderr).toContain(message);
      }
    },
    TIMEOUT,
  );

  it(
    'sets prevented_count, stop_hook_active and last_assistant_message from --stop',
    async () => {
      const workspace = workspaceWith('soong');
      const result = await hooksTest(workspace, [
        'Stop',
        '--stop',
        '{"prevented_count":2,"last_assistant_message":"All done.","previous_reasons":["a","b"]}',
      ]);
      expect(result.code, result.stderr).toBe(0);
      expect(captured(workspace, 'stop').input).toMatchObject({
        stop_hook_active: true,
        prevented_count: 2,
        previous_reasons: ['a', 'b'],
        last_assistant_message: 'All done.',
      });
      const legacy = await hooksTest(workspace, ['Stop', '--prompt', 'Finished.']);
      expect(legacy.code).toBe(0);
      expect(captured(workspace, 'stop').input).toMatchObject({
        stop_hook_active: false,
        prevented_count: 0,
        last_assistant_message: 'Finished.',
      });
    },
    TIMEOUT,
  );

  it(
    'gives PostToolUse the --result, an error with --result-error, and an artifact when it is large',
    async () => {
      const workspace = workspaceWith('soong', '[hooks]\ninline_result_bytes = 1024\n');
      const small = await hooksTest(workspace, [
        'PostToolUse',
        '--tool',
        'bash',
        '--input',
        '{"command":"make"}',
        '--result',
        'make: *** [all] Error 2',
        '--result-error',
      ]);
      expect(small.code, small.stderr).toBe(0);
      expect(captured(workspace, 'post').input.result).toEqual({
        is_error: true,
        bytes: 23,
        content: 'make: *** [all] Error 2',
      });
      const large = await hooksTest(workspace, [
        'PostToolUse',
        '--tool',
        'bash',
        '--input',
        '{"command":"cat big"}',
        '--result',
        'y'.repeat(20_000),
      ]);
      expect(large.code, large.stderr).toBe(0);
      const result = captured(workspace, 'post').input.result as Record<string, unknown>;
      expect(result).toMatchObject({ is_error: false, bytes: 20_000 });
      expect(result.content).toBeUndefined();
      expect(String(result.summary).length).toBeLessThan(20_000);
      expect(result.artifact_ref).toMatchObject({ bytes: 20_000 });
    },
    TIMEOUT,
  );

  it(
    'gives a Claude Code hook its fields and a transcript holding the prompt and the last assistant message',
    async () => {
      const workspace = workspaceWith('claude-code');
      const stop = await hooksTest(workspace, [
        'Stop',
        '--prompt',
        'fix the bug',
        '--stop',
        '{"prevented_count":1,"last_assistant_message":"Fixed."}',
      ]);
      expect(stop.code, stop.stderr).toBe(0);
      const got = captured(workspace, 'stop');
      expect(got.input).toMatchObject({
        hook_event_name: 'Stop',
        stop_hook_active: true,
        last_assistant_message: 'Fixed.',
        cwd: workspace.project,
      });
      expect(
        (got.transcript ?? '')
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line)),
      ).toEqual([
        { type: 'user', message: { role: 'user', content: 'fix the bug' } },
        {
          type: 'assistant',
          message: { role: 'assistant', content: [{ type: 'text', text: 'Fixed.' }] },
        },
      ]);
      const post = await hooksTest(workspace, [
        'PostToolUse',
        '--tool',
        'bash',
        '--input',
        '{"command":"ls"}',
        '--result',
        'a.txt\n',
      ]);
      expect(post.code, post.stderr).toBe(0);
      expect(captured(workspace, 'post').input).toMatchObject({
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        tool_use_id: 'call_test',
        tool_response: { stdout: 'a.txt\n', stderr: '', interrupted: false, isImage: false },
      });
    },
    TIMEOUT,
  );
});
