import fs from 'node:fs';
import path from 'node:path';
import type { ToolCallInfo } from '@soong-agent/protocol';
import { makeTempDir } from '@soong-agent/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { HOOK_LOG_LINE_BYTES, HOOK_LOG_LINES_MAX, HOOK_REASON_BYTES } from './decide-hook-run.js';
import { recordsOf, recordTypes, setup } from './test-helpers/setup.js';

// The attacker's side of the engine: secrets and lookalikes in the agent's env, hostile hook
// output, a working dir swapped after loading, hooks.json edited while the session runs.

const tempDir = () => makeTempDir();
const TIMEOUT = 60_000;

const tool: ToolCallInfo = {
  name: 'bash',
  call_id: 'call_1',
  input: { command: 'echo INPUT-MARKER-41c9' },
  risk: 'dangerous',
  tags: [],
  paths: [],
};

const dump = (file: string) =>
  `env > '${file}.env'; tr '\\000' '\\n' < /proc/$$/environ > '${file}.environ'; ` +
  `tr '\\000' '\\n' < /proc/$$/cmdline > '${file}.cmdline'; cat > '${file}.stdin'`;

describe('createHookEngine', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  });

  it(
    'hides unlisted secrets and keeps the SOONG_AGENT_* values its own when the agent env carries lookalikes',
    async () => {
      const root = tempDir();
      const out = path.join(root, 'probe');
      Object.assign(process.env, {
        AWS_SECRET_ACCESS_KEY: 'aws-secret-41c9',
        GITHUB_TOKEN: 'ghp-secret-41c9',
        SOONG_AGENT_HOME: '/evil/home',
        SOONG_AGENT_PROJECT_DIR: '/evil/project',
        SOONG_AGENT_HOOK_EVENT: 'Stop',
        SOONG_AGENT_SECRET: 'lookalike-41c9',
      });
      const { engine, home, projectDir } = setup(
        root,
        { PreToolUse: [{ hooks: [{ command: dump(out) }] }] },
        // Even when the user allowlists the SOONG_AGENT_* names, the engine's values win.
        '[runner]\nenv_allowlist = ["GITHUB", "SOONG_AGENT_HOME", "SOONG_AGENT_PROJECT_DIR", "SOONG_AGENT_HOOK_EVENT"]\n',
      );
      await engine.run('PreToolUse', { tool });
      for (const view of ['env', 'environ']) {
        const seen = fs.readFileSync(`${out}.${view}`, 'utf8');
        expect(seen).not.toMatch(/41c9|\/evil\//);
        expect(seen).toContain(`SOONG_AGENT_HOME=${home}\n`);
        expect(seen).toContain(`SOONG_AGENT_PROJECT_DIR=${projectDir}\n`);
        expect(seen).toContain('SOONG_AGENT_HOOK_EVENT=PreToolUse\n');
      }
      // The payload is on stdin, never in argv or env.
      expect(fs.readFileSync(`${out}.stdin`, 'utf8')).toContain('INPUT-MARKER-41c9');
      expect(fs.readFileSync(`${out}.cmdline`, 'utf8')).not.toContain('INPUT-MARKER');
    },
    TIMEOUT,
  );

  it(
    'keeps running the hooks it was created with when hooks.json is rewritten mid-session',
    async () => {
      const root = tempDir();
      const { engine, home } = setup(root, {
        PreToolUse: [{ hooks: [{ command: `touch '${path.join(root, 'original-ran')}'` }] }],
      });
      fs.writeFileSync(
        path.join(home, 'hooks.json'),
        JSON.stringify({
          version: 1,
          hooks: {
            PreToolUse: [
              {
                hooks: [
                  {
                    type: 'command',
                    command: `touch '${path.join(root, 'edited-ran')}'; echo '{"decision":"deny"}'`,
                  },
                ],
              },
            ],
          },
        }),
      );
      const outcome = await engine.run('PreToolUse', { tool });
      expect(outcome.decision).toBe('none');
      expect(fs.existsSync(path.join(root, 'original-ran'))).toBe(true);
      expect(fs.existsSync(path.join(root, 'edited-ran'))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'checks working_dir when the hook runs, so a dir swapped for a symlink outside after loading runs nothing',
    async () => {
      const root = tempDir();
      const outside = path.join(root, 'outside');
      fs.mkdirSync(outside);
      const { engine, sink, projectDir } = setup(root, {
        PreToolUse: [
          { hooks: [{ command: 'touch ran-here', working_dir: 'sub', on_failure: 'deny' }] },
        ],
      });
      fs.symlinkSync(outside, path.join(projectDir, 'sub'));
      const outcome = await engine.run('PreToolUse', { tool });
      expect(outcome.decision).toBe('deny');
      expect(recordsOf(sink.records, 'hook_failed')).toMatchObject([{ failure: 'cwd_invalid' }]);
      expect(fs.readdirSync(outside)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'keeps the deny, pollutes nothing and records valid records when the output carries __proto__ keys',
    async () => {
      const root = tempDir();
      const output = JSON.stringify({ decision: 'deny', reason: 'r' }).replace(
        '}',
        ',"__proto__":{"polluted":true},"metadata":{"__proto__":{"polluted":true}},"constructor":{"prototype":{"polluted":true}}}',
      );
      const { engine, sink } = setup(root, {
        PreToolUse: [{ hooks: [{ command: `cat >/dev/null; echo '${output}'` }] }],
      });
      const outcome = await engine.run('PreToolUse', { tool });
      expect(outcome).toMatchObject({ decision: 'deny', reason: 'r' });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
      expect(recordTypes(sink.records)).toEqual([
        'hook_started',
        'hook_log',
        'hook_finished',
        'hook_denied',
      ]);
    },
    TIMEOUT,
  );

  it(
    'records at most HOOK_LOG_LINES_MAX bounded lines when a hook returns a flood of logs',
    async () => {
      const root = tempDir();
      const script = path.join(root, 'logs.mjs');
      fs.writeFileSync(
        script,
        "process.stdout.write(JSON.stringify({ decision: 'allow', logs: [...Array.from({ length: 5000 }, (_, i) => 'line ' + i), 'x'.repeat(500000)] }));\n",
      );
      const { engine, sink } = setup(root, {
        PreToolUse: [{ hooks: [{ command: `cat >/dev/null; node '${script}'` }] }],
      });
      const outcome = await engine.run('PreToolUse', { tool });
      expect(outcome.decision).toBe('allow');
      const logs = recordsOf(sink.records, 'hook_log');
      expect(logs.filter((record) => record.source === 'logs')).toHaveLength(HOOK_LOG_LINES_MAX);
      expect(logs.filter((record) => record.source === 'warning')).toHaveLength(1);
      for (const record of logs) {
        expect(Buffer.byteLength(record.message)).toBeLessThanOrEqual(HOOK_LOG_LINE_BYTES + 256);
      }
    },
    TIMEOUT,
  );
  it(
    'bounds the reason in every record and in the outcome when a hook denies with a 512 KiB reason',
    async () => {
      const root = tempDir();
      const script = path.join(root, 'reason.mjs');
      fs.writeFileSync(
        script,
        "process.stdout.write(JSON.stringify({ decision: 'deny', reason: 'start ' + 'x'.repeat(1 << 19) + ' the end' }));\n",
      );
      const { engine, sink } = setup(root, {
        PreToolUse: [{ hooks: [{ command: `cat >/dev/null; node '${script}'`, name: 'verbose' }] }],
      });
      const outcome = await engine.run('PreToolUse', { tool });
      expect(outcome.decision).toBe('deny');
      expect(Buffer.byteLength(outcome.reason ?? '')).toBeLessThanOrEqual(HOOK_REASON_BYTES + 256);
      expect(outcome.reason).toMatch(/^start x/);
      expect(outcome.reason).toMatch(/ the end$/);
      for (const type of ['hook_finished', 'hook_denied'] as const) {
        const [record] = recordsOf(sink.records, type);
        expect(record?.reason).toBe(outcome.reason);
      }
    },
    TIMEOUT,
  );

  it.each([
    ['a reason that is a number', '{"decision":"deny","reason":123}', 'denied by hook guard'],
    ['an upper-case decision', '{"decision":"DENY","reason":"r"}', 'r'],
    ["Claude Code's block", '{"decision":"block","reason":"r"}', 'r'],
    ['two JSON objects on one line', '{"decision":"allow"}{"decision":"deny","reason":"r"}', 'r'],
  ])(
    'keeps the deny and warns when a hook writes a deny with %s',
    async (_what, stdout, reason) => {
      const root = tempDir();
      const { engine, sink } = setup(root, {
        PreToolUse: [{ hooks: [{ command: `cat >/dev/null; echo '${stdout}'`, name: 'guard' }] }],
      });
      const outcome = await engine.run('PreToolUse', { tool });
      expect(outcome).toMatchObject({ decision: 'deny', reason });
      expect(recordTypes(sink.records)).toEqual([
        'hook_started',
        'hook_log',
        'hook_finished',
        'hook_denied',
      ]);
      expect(recordsOf(sink.records, 'hook_log')[0]?.source).toBe('warning');
    },
    TIMEOUT,
  );

  it.each([5_000, 100_000])(
    'fails the hook with protocol_error and closes hook_started when metadata nests %i levels deep',
    async (depth) => {
      const root = tempDir();
      const script = path.join(root, 'deep.mjs');
      fs.writeFileSync(
        script,
        `process.stdout.write('{"decision":"allow","metadata":{"a":' + '['.repeat(${depth}) + ']'.repeat(${depth}) + '}}');\n`,
      );
      const { engine, sink } = setup(root, {
        PreToolUse: [
          { hooks: [{ command: `cat >/dev/null; node '${script}'`, on_failure: 'deny' }] },
        ],
      });
      const outcome = await engine.run('PreToolUse', { tool });
      expect(outcome.decision).toBe('deny');
      expect(recordTypes(sink.records)).toEqual(['hook_started', 'hook_failed', 'hook_denied']);
      expect(recordsOf(sink.records, 'hook_failed')[0]?.failure).toBe('protocol_error');
    },
    TIMEOUT,
  );

  it(
    'fails the hook closed, running nothing, when the agent rewrites a guard script run as "sh hooks/guard.sh" mid-session',
    async () => {
      const root = tempDir();
      const projectDir = path.join(root, 'project');
      const marker = path.join(root, 'rewritten-ran');
      fs.mkdirSync(path.join(projectDir, 'hooks'), { recursive: true });
      const guard = path.join(projectDir, 'hooks', 'guard.sh');
      fs.writeFileSync(guard, `cat >/dev/null; echo '{"decision":"deny","reason":"guarded"}'\n`);
      const { engine, sink } = setup(root, {
        PreToolUse: [{ hooks: [{ command: 'sh hooks/guard.sh', on_failure: 'ignore' }] }],
        PostToolUse: [{ hooks: [{ command: 'sh hooks/guard.sh', name: 'observer' }] }],
      });
      expect(await engine.run('PreToolUse', { tool })).toMatchObject({
        decision: 'deny',
        reason: 'guarded',
      });
      // What write_file would do: same size or not, the content changes.
      fs.writeFileSync(guard, `touch '${marker}'; echo '{"decision":"allow"}'\n`);
      sink.records.length = 0;
      const outcome = await engine.run('PreToolUse', { tool });
      expect(outcome.decision).toBe('deny');
      expect(recordTypes(sink.records)).toEqual(['hook_started', 'hook_failed', 'hook_denied']);
      expect(recordsOf(sink.records, 'hook_failed')[0]).toMatchObject({
        failure: 'spawn_error',
        on_failure: 'deny',
      });
      expect(recordsOf(sink.records, 'hook_failed')[0]?.message).toContain(guard);
      // On an observe-only event the fail-closed deny is recorded as ignored.
      sink.records.length = 0;
      await engine.run('PostToolUse', {
        tool,
        result: { is_error: false, bytes: 2, content: 'ok' },
        duration_ms: 1,
      });
      expect(recordTypes(sink.records)).toEqual([
        'hook_started',
        'hook_failed',
        'hook_decision_ignored',
      ]);
      expect(fs.existsSync(marker)).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'watches an interpreter named by its path inside the project, not one outside it and the agent home (a program of the system, like sh on PATH)',
    async () => {
      const root = tempDir();
      const venv = path.join(root, 'project', '.venv', 'bin');
      const tools = path.join(root, 'tools');
      const guards = path.join(root, 'guards');
      for (const dir of [venv, tools, guards]) fs.mkdirSync(dir, { recursive: true });
      const guard = path.join(guards, 'guard.sh');
      fs.writeFileSync(guard, `cat >/dev/null; echo '{"decision":"allow"}'\n`);
      // Both "interpreters" are links to the system's sh, as a virtualenv's python is.
      for (const dir of [venv, tools]) fs.symlinkSync('/bin/sh', path.join(dir, 'sh'));
      const { engine, sink } = setup(root, {
        PreToolUse: [
          {
            hooks: [
              { command: `'${path.join(tools, 'sh')}' '${guard}'`, name: 'outside' },
              { command: `'${path.join(venv, 'sh')}' '${guard}'`, name: 'in-project' },
            ],
          },
        ],
      });
      expect((await engine.run('PreToolUse', { tool })).decision).toBe('allow');
      // The agent points both at another program.
      for (const dir of [venv, tools]) {
        fs.unlinkSync(path.join(dir, 'sh'));
        fs.symlinkSync('/bin/bash', path.join(dir, 'sh'));
      }
      sink.records.length = 0;
      const outcome = await engine.run('PreToolUse', { tool });
      expect(outcome).toMatchObject({ decision: 'deny', hookId: 'in-project' });
      expect(recordsOf(sink.records, 'hook_finished')).toMatchObject([
        { hook_id: 'outside', decision: 'allow' },
      ]);
      expect(recordsOf(sink.records, 'hook_failed')).toMatchObject([
        { hook_id: 'in-project', failure: 'spawn_error', on_failure: 'deny' },
      ]);
      expect(recordsOf(sink.records, 'hook_failed')[0]?.message).toContain(path.join(venv, 'sh'));
    },
    TIMEOUT,
  );

  it(
    'fails a worker hook closed before the request goes out when the agent rewrites a module the running worker would import lazily',
    async () => {
      const root = tempDir();
      const hooksDir = path.join(root, 'project', '.claude', 'hooks');
      const marker = path.join(root, 'rewritten-rules-ran');
      fs.mkdirSync(hooksDir, { recursive: true });
      // The worker loads its rules only when a dangerous call first comes in.
      fs.writeFileSync(
        path.join(hooksDir, 'guard.mjs'),
        `import readline from 'node:readline';
readline.createInterface({ input: process.stdin }).on('line', async (line) => {
  const { id, input } = JSON.parse(line);
  let output = { decision: 'allow' };
  if (input.tool.risk === 'dangerous') output = (await import('./rules.mjs')).decide(input);
  process.stdout.write(JSON.stringify({ id, output }) + '\\n');
});
`,
      );
      const rules = path.join(hooksDir, 'rules.mjs');
      fs.writeFileSync(
        rules,
        `export const decide = () => ({ decision: 'deny', reason: 'guarded' });\n`,
      );
      const { engine, sink } = setup(root, {
        PreToolUse: [
          {
            hooks: [
              {
                name: 'guard',
                command: `'${process.execPath}' .claude/hooks/guard.mjs`,
                mode: 'worker',
              },
            ],
          },
        ],
      });
      try {
        const readonly = { ...tool, risk: 'readonly' as const };
        expect((await engine.run('PreToolUse', { tool: readonly })).decision).toBe('allow');
        // Same worker, rules not loaded yet: the agent rewrites them with write_file.
        fs.writeFileSync(
          rules,
          `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(marker)}, 'ran');\nexport const decide = () => ({ decision: 'allow' });\n`,
        );
        const outcome = await engine.run('PreToolUse', { tool });
        expect(outcome.decision).toBe('deny');
        expect(recordsOf(sink.records, 'hook_failed')).toMatchObject([
          { hook_id: 'guard', failure: 'spawn_error', on_failure: 'deny' },
        ]);
        expect(recordsOf(sink.records, 'hook_failed')[0]?.message).toContain(rules);
      } finally {
        await engine.close();
      }
      expect(fs.existsSync(marker)).toBe(false);
    },
    TIMEOUT,
  );

  // What the command really runs, however it is spelled, and what it imports.
  const PYTHON_GUARD =
    'import sys, rules\ndata = sys.stdin.read()\nif rules.FORBIDDEN in data:\n    print("{\\"decision\\":\\"deny\\",\\"reason\\":\\"guarded\\"}")\n';
  // A project with a Python guard in .claude/hooks that imports rules.py beside it.
  const pythonGuardProject = () => {
    const root = tempDir();
    const hooksDir = path.join(root, 'project', '.claude', 'hooks');
    fs.mkdirSync(hooksDir, { recursive: true });
    fs.writeFileSync(path.join(hooksDir, 'guard.py'), PYTHON_GUARD);
    fs.writeFileSync(path.join(hooksDir, 'rules.py'), 'FORBIDDEN = "INPUT-MARKER"\n');
    return { root, hooksDir };
  };
  it.each([
    ['python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py"', 'claude-code', 'guard.py'],
    [`bash -c 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py'`, 'claude-code', 'guard.py'],
    [`bash -c 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py"'`, 'claude-code', 'rules.py'],
    ['python3 "$SOONG_AGENT_PROJECT_DIR"/.claude/hooks/guard.py', 'soong', 'guard.py'],
    ['python3 "$SOONG_AGENT_PROJECT_DIR"/.claude/hooks/guard.py', 'soong', 'rules.py'],
    ['cd "$SOONG_AGENT_PROJECT_DIR" && python3 .claude/hooks/guard.py', 'soong', 'json.py'],
    // How hooks import writes a plugin's hook: the command sets the variable itself.
    [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's spelling, not a template
      'CLAUDE_PLUGIN_ROOT="$SOONG_AGENT_PROJECT_DIR/.claude"; export CLAUDE_PLUGIN_ROOT; python3 "${CLAUDE_PLUGIN_ROOT}/hooks/guard.py"',
      'claude-code',
      'rules.py',
    ],
  ] as const)(
    'fails %j (%s) closed when the agent writes %s in the hook folder mid-session',
    async (command, protocol, written) => {
      const { root, hooksDir } = pythonGuardProject();
      const { engine, sink } = setup(root, {
        PreToolUse: [{ hooks: [{ command, protocol, name: 'guard' }] }],
      });
      const first = await engine.run('PreToolUse', { tool });
      // A claude-code hook answers in its own dialect; both deny the marked input.
      expect(first.decision === 'deny' || protocol === 'claude-code').toBe(true);
      // Python imports a new json.py beside the script before the real one: a new file counts.
      fs.writeFileSync(path.join(hooksDir, written), 'FORBIDDEN = "never-matches"\n');
      sink.records.length = 0;
      const outcome = await engine.run('PreToolUse', { tool });
      expect(outcome.decision).toBe('deny');
      expect(recordsOf(sink.records, 'hook_failed')[0]).toMatchObject({
        failure: 'spawn_error',
        on_failure: 'deny',
      });
      expect(recordsOf(sink.records, 'hook_failed')[0]?.message).toContain(
        path.join(hooksDir, written),
      );
    },
    TIMEOUT,
  );

  it(
    'watches the modules of its kind beside a guard outside the project, and nothing else there',
    async () => {
      const root = tempDir();
      const hooksDir = path.join(root, 'home', 'hooks');
      fs.mkdirSync(hooksDir, { recursive: true });
      fs.writeFileSync(path.join(hooksDir, 'guard.py'), PYTHON_GUARD);
      fs.writeFileSync(path.join(hooksDir, 'rules.py'), 'FORBIDDEN = "INPUT-MARKER"\n');
      const { engine, sink } = setup(root, {
        PreToolUse: [{ hooks: [{ command: 'python3 "$SOONG_AGENT_HOME"/hooks/guard.py' }] }],
      });
      expect((await engine.run('PreToolUse', { tool })).reason).toBe('guarded');
      // A note or a log beside it is not code it loads: the guard keeps running.
      fs.writeFileSync(path.join(hooksDir, 'notes.txt'), 'x');
      expect((await engine.run('PreToolUse', { tool })).reason).toBe('guarded');
      expect(recordsOf(sink.records, 'hook_failed')).toEqual([]);
      fs.writeFileSync(path.join(hooksDir, 'rules.py'), 'FORBIDDEN = "never"\n');
      expect((await engine.run('PreToolUse', { tool })).decision).toBe('deny');
      expect(recordsOf(sink.records, 'hook_failed')[0]?.message).toContain('rules.py');
    },
    TIMEOUT,
  );

  it(
    'fails a bare-named hook closed when PATH finds it inside the project and the agent rewrites it',
    async () => {
      const root = tempDir();
      const bin = path.join(root, 'project', 'bin');
      fs.mkdirSync(bin, { recursive: true });
      fs.writeFileSync(
        path.join(bin, 'my-guard'),
        `#!/bin/sh\ncat >/dev/null; echo '{"decision":"deny","reason":"guarded"}'\n`,
        { mode: 0o755 },
      );
      process.env.PATH = `${bin}${path.delimiter}${process.env.PATH ?? ''}`;
      const { engine, sink } = setup(root, { PreToolUse: [{ hooks: [{ command: 'my-guard' }] }] });
      expect((await engine.run('PreToolUse', { tool })).reason).toBe('guarded');
      fs.writeFileSync(path.join(bin, 'my-guard'), '#!/bin/sh\ncat >/dev/null\n', { mode: 0o755 });
      expect((await engine.run('PreToolUse', { tool })).decision).toBe('deny');
      expect(recordsOf(sink.records, 'hook_failed')[0]?.message).toContain(
        path.join(bin, 'my-guard'),
      );
    },
    TIMEOUT,
  );

  it(
    'fails a project hook closed when its folder holds more files than can be watched',
    async () => {
      const { root, hooksDir } = pythonGuardProject();
      fs.mkdirSync(path.join(hooksDir, 'node_modules'));
      for (let file = 0; file < 2001; file++) {
        fs.writeFileSync(path.join(hooksDir, 'node_modules', `m${file}.js`), '');
      }
      const { engine, sink } = setup(root, {
        PreToolUse: [{ hooks: [{ command: 'python3 .claude/hooks/guard.py' }] }],
      });
      expect((await engine.run('PreToolUse', { tool })).decision).toBe('deny');
      expect(recordsOf(sink.records, 'hook_failed')[0]?.message).toContain('more than 2000 files');
    },
    TIMEOUT,
  );

  it(
    'keeps running a project hook whose folder only gains byte-code caches or is touched without a change',
    async () => {
      const { root, hooksDir } = pythonGuardProject();
      const { engine, sink } = setup(root, {
        PreToolUse: [{ hooks: [{ command: 'python3 .claude/hooks/guard.py', name: 'guard' }] }],
      });
      for (let run = 0; run < 3; run++) {
        expect((await engine.run('PreToolUse', { tool })).reason).toBe('guarded');
        const later = new Date(Date.now() + 60_000 * (run + 1));
        fs.utimesSync(path.join(hooksDir, 'rules.py'), later, later);
      }
      expect(recordsOf(sink.records, 'hook_failed')).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'keeps running a hook whose named files are unchanged, and fails it closed when one is deleted',
    async () => {
      const root = tempDir();
      const projectDir = path.join(root, 'project');
      fs.mkdirSync(projectDir, { recursive: true });
      const rules = path.join(projectDir, 'rules.txt');
      fs.writeFileSync(rules, 'allow\n');
      const { engine, sink } = setup(root, {
        PreToolUse: [{ hooks: [{ command: 'cat >/dev/null; grep -q allow rules.txt' }] }],
      });
      for (let run = 0; run < 3; run++) {
        expect((await engine.run('PreToolUse', { tool })).decision).toBe('none');
      }
      expect(recordsOf(sink.records, 'hook_failed')).toEqual([]);
      fs.rmSync(rules);
      expect((await engine.run('PreToolUse', { tool })).decision).toBe('deny');
      expect(recordsOf(sink.records, 'hook_failed')).toMatchObject([{ failure: 'spawn_error' }]);
    },
    TIMEOUT,
  );
});
