// The extension inside the real pi (@mariozechner/pi-coding-agent 0.73.1 from the npm registry,
// installed into a cache outside the repository by vitest's global setup), driven by a fake
// OpenAI-compatible model on 127.0.0.1 with `pi -p --offline`, installed the way the README says.
import fs from 'node:fs';
import path from 'node:path';
import { writeHookScript } from '@soong-agent/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { messageText, type SentMessage, startFakeOpenAI } from './test-helpers/fake-openai.js';
import {
  installExtension,
  makePiWorkspace,
  type PiRun,
  type PiWorkspace,
  runPi,
  runPiRpc,
  runSoongAgent,
  sessionRecords,
} from './test-helpers/pi-workspace.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A workspace whose pi talks to a fake model that answers `script` in order. */
async function setUp(script: Parameters<typeof startFakeOpenAI>[0]) {
  const model = await startFakeOpenAI(script);
  const workspace = makePiWorkspace(model.baseUrl);
  cleanups.push(
    () => model.close(),
    () => fs.rmSync(workspace.root, { recursive: true, force: true }),
  );
  return { model, workspace };
}

// Every pi run's wall time, printed once at the end (the figures of the report).
const timings: { name: string; ms: number }[] = [];
async function timed(name: string, run: Promise<PiRun>): Promise<PiRun> {
  const result = await run;
  timings.push({ name, ms: Math.round(result.durationMs) });
  return result;
}
afterAll(() => {
  if (timings.length > 0) {
    console.log(`pi runs (ms): ${timings.map(({ name, ms }) => `${name} ${ms}`).join(', ')}`);
  }
});

const rmVictim = {
  calls: [{ id: 'call_rm', name: 'bash', input: { command: 'rm -rf ./victim' } }],
};

function toolMessage(messages: readonly SentMessage[], id: string): SentMessage | undefined {
  return messages.find((message) => message.role === 'tool' && message.tool_call_id === id);
}

/** A Claude Code guard in `~/.claude/settings.json`, imported with `soong-agent hooks import`. */
async function importClaudeGuard(workspace: PiWorkspace): Promise<string> {
  const seen = path.join(workspace.root, 'claude-seen.jsonl');
  const guard = writeHookScript(
    path.join(workspace.home, '.claude', 'hooks', 'no-rm-rf.sh'),
    [
      '#!/bin/sh',
      'input=$(cat)',
      `printf '%s\\n' "$input" >> '${seen}'`,
      'case "$input" in',
      `  *'rm -rf'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is not allowed here"}}' ;;`,
      'esac',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(workspace.home, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] },
    }),
  );
  await runSoongAgent(workspace, [
    'hooks',
    'import',
    '--from',
    'claude',
    '--write',
    '--home',
    workspace.soongHome,
  ]);
  return seen;
}

describe('@soong-agent/pi in the real pi', () => {
  it('lets the scripted session delete the folder when the extension is not installed (control)', async () => {
    const { model, workspace } = await setUp([rmVictim, { text: 'cleaned up' }]);
    await importClaudeGuard(workspace);

    const run = await timed('control', runPi(workspace, 'clean up'));

    expect(run.exitCode).toBe(0);
    expect(fs.existsSync(path.join(workspace.project, 'victim'))).toBe(false);
    expect(model.requests).toHaveLength(2);
    expect(fs.existsSync(path.join(workspace.soongHome, 'sessions'))).toBe(false);
  });

  it('stops rm -rf with an imported Claude Code guard when the extension is installed', async () => {
    const { model, workspace } = await setUp([rmVictim, { text: 'I left it alone' }]);
    const seen = await importClaudeGuard(workspace);
    installExtension(workspace);

    // The default agent home: ~/.soong-agent of pi's HOME.
    const run = await timed('claude guard', runPi(workspace, 'clean up'));

    expect(run.exitCode).toBe(0);
    expect(fs.readFileSync(path.join(workspace.project, 'victim', 'keep.txt'), 'utf8')).toBe(
      'precious\n',
    );
    // The model got the reason as the tool's result in its next request.
    expect(model.requests).toHaveLength(2);
    const result = toolMessage(model.requests[1]?.messages ?? [], 'call_rm');
    expect(result === undefined ? '' : messageText(result)).toContain('rm -rf is not allowed here');
    // The Claude Code hook saw Claude Code's names: Bash with tool_input.command.
    const input = JSON.parse(fs.readFileSync(seen, 'utf8').trim());
    expect(input).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf ./victim' },
      cwd: workspace.project,
    });
    expect(fs.existsSync(input.transcript_path)).toBe(true);
    const records = sessionRecords(workspace);
    expect(records.map((record) => record.type)).toEqual(
      expect.arrayContaining(['session_started', 'config_loaded', 'user_prompt_submitted']),
    );
    expect(records).toContainEqual(
      expect.objectContaining({ type: 'hook_denied', call_id: 'call_rm' }),
    );
    expect(records).toContainEqual(
      expect.objectContaining({
        type: 'tool_denied',
        call_id: 'call_rm',
        tool: 'bash',
        source: 'hook',
        reason: 'rm -rf is not allowed here',
      }),
    );
    expect(records.some((record) => record.type === 'tool_finished')).toBe(false);
    // Start-up says how many hooks are active and where the event log is (stderr in print mode).
    expect(run.stderr).toMatch(
      /soong-agent hooks: 1 hook active from .*hooks\.json; event log .*events\.jsonl/,
    );
    expect(run.stdout).toContain('I left it alone');
  });

  it('runs PostToolUse hooks with the result, Claude Code hooks seeing Read and Bash', async () => {
    const { workspace } = await setUp([
      {
        calls: [
          { id: 'call_read', name: 'read', input: { path: 'notes.txt' } },
          { id: 'call_echo', name: 'bash', input: { command: 'echo hello-from-bash' } },
          { id: 'call_ls', name: 'ls', input: {} },
          { id: 'call_find', name: 'find', input: { pattern: '*.txt' } },
        ],
      },
      { text: 'read and echoed' },
    ]);
    fs.writeFileSync(path.join(workspace.project, 'notes.txt'), 'line one\nline two\n');
    // pi runs a step's tools in parallel, so their PostToolUse hooks may run at once: each run writes
    // a file of its own (named by its shell's pid) rather than appending to a shared one.
    const soongSeen = path.join(workspace.root, 'post-soong');
    const claudeSeen = path.join(workspace.root, 'post-claude');
    fs.mkdirSync(soongSeen);
    fs.mkdirSync(claudeSeen);
    const claudeRule = {
      matcher: { tool: ['read_file', 'bash', 'list_dir', 'find'] },
      hooks: [
        { type: 'command', protocol: 'claude-code', command: `cat > '${claudeSeen}'/$$.json` },
      ],
    };
    fs.writeFileSync(
      path.join(workspace.soongHome, 'hooks.json'),
      JSON.stringify({
        version: 1,
        hooks: {
          PostToolUse: [
            {
              hooks: [{ type: 'command', command: `cat > '${soongSeen}'/$$.json` }],
            },
            claudeRule,
          ],
          // A claude-code PostToolUse hook sees only results that succeeded (spec §13.2); pi's find
          // fails where `fd` is not installed, and then reaches the same hook on PostToolUseFailure.
          PostToolUseFailure: [claudeRule],
        },
      }),
    );
    installExtension(workspace);

    const run = await timed(
      'post tool use',
      runPi(workspace, 'read notes', {
        env: { SOONG_AGENT_HOME: workspace.soongHome },
        args: ['--tools', 'read,bash,edit,write,grep,find,ls'],
      }),
    );

    expect(run.exitCode).toBe(0);
    const lines = (dir: string) =>
      fs.readdirSync(dir).map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')));
    const soong = lines(soongSeen);
    expect(soong.map((input) => input.tool.name).sort()).toEqual([
      'bash',
      'find',
      'list_dir',
      'read_file',
    ]);
    // pi's read is our read_file: readonly, its path resolved in the project.
    expect(soong.find((input) => input.tool.name === 'read_file')?.tool).toMatchObject({
      risk: 'readonly',
      paths: [path.join(workspace.project, 'notes.txt')],
    });
    expect(JSON.stringify(soong)).toContain('hello-from-bash');
    expect(JSON.stringify(soong)).toContain('line two');
    const claude = lines(claudeSeen);
    const read = claude.find((input) => input.tool_name === 'Read');
    expect(read?.tool_input).toMatchObject({
      file_path: path.join(workspace.project, 'notes.txt'),
    });
    const bash = claude.find((input) => input.tool_name === 'Bash');
    expect(bash).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_input: { command: 'echo hello-from-bash' },
    });
    expect(JSON.stringify(bash?.tool_response)).toContain('hello-from-bash');
    // pi's ls is LS with an absolute path; find, which no canonical tool matches, is Glob.
    expect(claude.find((input) => input.tool_name === 'LS')?.tool_input).toMatchObject({
      path: workspace.project,
    });
    expect(claude.find((input) => input.tool_name === 'Glob')?.tool_input).toMatchObject({
      pattern: '*.txt',
      path: workspace.project,
    });
    const finished = sessionRecords(workspace).filter((record) => record.type === 'tool_finished');
    expect(finished.map((record) => record.tool).sort()).toEqual([
      'bash',
      'find',
      'list_dir',
      'read_file',
    ]);
  });

  it('keeps the session going once when a Stop hook denies, then ends it', async () => {
    const { model, workspace } = await setUp([
      { text: 'all done' },
      { text: 'ran the tests, now done' },
    ]);
    const marker = path.join(workspace.root, 'stopped-once');
    fs.writeFileSync(
      path.join(workspace.soongHome, 'hooks.json'),
      JSON.stringify({
        version: 1,
        hooks: {
          Stop: [
            {
              hooks: [
                {
                  type: 'command',
                  command: `if [ -e '${marker}' ]; then echo '{"decision":"allow"}'; else touch '${marker}'; echo '{"decision":"deny","reason":"run the tests first"}'; fi`,
                },
              ],
            },
          ],
        },
      }),
    );
    installExtension(workspace);

    const run = await timed(
      'stop once',
      runPi(workspace, 'finish the task', { env: { SOONG_AGENT_HOME: workspace.soongHome } }),
    );

    expect(run.exitCode).toBe(0);
    // Exactly one more model call, whose last message is the Stop reason as a user message.
    expect(model.requests).toHaveLength(2);
    const last = model.requests[1]?.messages.at(-1);
    expect(last?.role).toBe('user');
    expect(last === undefined ? '' : messageText(last)).toContain('run the tests first');
    const records = sessionRecords(workspace);
    expect(records).toContainEqual(
      expect.objectContaining({
        type: 'stop_hook_prevented',
        reason: 'run the tests first',
        prevented_count: 1,
      }),
    );
    const types = records.map((record) => record.type);
    expect(types.filter((type) => type === 'loop_ended')).toHaveLength(1);
    expect(types.indexOf('stop_hook_prevented')).toBeLessThan(types.indexOf('loop_ended'));
  });

  it('blocks every tool call with the config error when hooks.json is broken', async () => {
    const { model, workspace } = await setUp([rmVictim, { text: 'could not' }]);
    fs.writeFileSync(
      path.join(workspace.soongHome, 'hooks.json'),
      '{\n  "version": 1,\n  "hooks": {\n    "PreToolUse": [ { "hooks": [] } ]\n  }\n}\n',
    );
    installExtension(workspace);

    const run = await timed(
      'broken config',
      runPi(workspace, 'clean up', { env: { SOONG_AGENT_HOME: workspace.soongHome } }),
    );

    expect(fs.existsSync(path.join(workspace.project, 'victim', 'keep.txt'))).toBe(true);
    const result = toolMessage(model.requests[1]?.messages ?? [], 'call_rm');
    const text = result === undefined ? '' : messageText(result);
    // The precise error: the file (under the HOME pi runs with), line and column.
    const where = '~/.soong-agent/hooks.json:4:32 hooks.PreToolUse[0].hooks';
    expect(text).toContain(where);
    expect(text).toContain('no tool runs until it is fixed');
    expect(run.stderr).toContain(where);
    expect(fs.existsSync(path.join(workspace.soongHome, 'sessions'))).toBe(false);
  });
});

describe('deliverHookContext in the real pi', () => {
  it('sends nodes with the next prompt when idle and before the next request after a tool', async () => {
    const { model, workspace } = await setUp([
      { calls: [{ id: 'call_echo', name: 'bash', input: { command: 'echo listed' } }] },
      { text: 'listed' },
    ]);
    installExtension(workspace);
    // A second extension of the user's that delivers nodes built directly.
    fs.writeFileSync(
      path.join(workspace.agentDir, 'extensions', 'context.ts'),
      [
        'import { deliverHookContext } from "@soong-agent/pi";',
        'const node = (hook_id: string, reason: string) => ({ kind: "hook_context" as const, event: "Stop" as const, hook_id, reason });',
        'export default function (pi: any) {',
        '  pi.on("session_start", () => { deliverHookContext(pi, [node("at-start", "first node"), node("at-start-2", "second node")], "next-prompt"); });',
        '  pi.on("tool_result", (_event: unknown, ctx: any) => { deliverHookContext(pi, [node("after-tool", "node after the tool")], ctx.isIdle() ? "next-prompt" : "next-request"); });',
        '}',
        '',
      ].join('\n'),
    );

    const run = await timed(
      'context delivery',
      runPi(workspace, 'list the project', { env: { SOONG_AGENT_HOME: workspace.soongHome } }),
    );

    expect(run.exitCode).toBe(0);
    expect(model.requests).toHaveLength(2);
    const first = model.requests[0]?.messages ?? [];
    const texts = first.filter((message) => message.role === 'user').map(messageText);
    // The prompt, then the nodes in order, each a user message (never a system one).
    expect(texts[0]).toBe('list the project');
    expect(texts[1]).toContain('first node');
    expect(texts[2]).toContain('second node');
    expect(JSON.stringify(first.filter((message) => message.role === 'system'))).not.toContain(
      'first node',
    );
    const second = model.requests[1]?.messages ?? [];
    const toolIndex = second.findIndex((message) => message.tool_call_id === 'call_echo');
    const nodeIndex = second.findIndex(
      (message) => message.role === 'user' && messageText(message).includes('node after the tool'),
    );
    expect(toolIndex).toBeGreaterThan(0);
    expect(nodeIndex).toBeGreaterThan(toolIndex);
  });
});

describe("@soong-agent/pi in pi's UI", () => {
  it('notifies how many hooks are active and where the log is, and sets a footer status', async () => {
    const { workspace } = await setUp([]);
    fs.writeFileSync(
      path.join(workspace.soongHome, 'hooks.json'),
      JSON.stringify({
        version: 1,
        hooks: {
          PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: 'true' }] }],
          Stop: [{ hooks: [{ type: 'command', command: 'true' }] }],
        },
      }),
    );
    installExtension(workspace);
    const uiRequests = (stdout: string) =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line))
        .filter((message) => message.type === 'extension_ui_request');

    const run = await timed(
      'rpc ui',
      runPiRpc(
        workspace,
        (stdout) => uiRequests(stdout).some((request) => request.method === 'setStatus'),
        { env: { SOONG_AGENT_HOME: workspace.soongHome } },
      ),
    );

    const requests = uiRequests(run.stdout);
    const notify = requests.find((request) => request.method === 'notify');
    expect(notify?.notifyType).toBe('info');
    expect(notify?.message).toMatch(
      /^soong-agent hooks: 2 hooks active from .*hooks\.json; event log .*events\.jsonl$/,
    );
    expect(requests).toContainEqual(
      expect.objectContaining({
        method: 'setStatus',
        statusKey: 'soong-hooks',
        statusText: 'hooks: 2',
      }),
    );
    // The log the notification names is the session's.
    const eventLog = String(notify?.message).replace(/^.*event log /, '');
    expect(fs.existsSync(eventLog)).toBe(true);
    expect(run.stderr).not.toContain('soong-agent hooks');
  });
});
