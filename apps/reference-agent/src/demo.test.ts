import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI, makeWorkspace, parseRecords, runCli, runShell } from './test-helpers/cli.js';

const PTY_RUN = fileURLToPath(new URL('./test-helpers/pty-run.py', import.meta.url));
// Select Graphic Rendition: the colour escapes (the live line's erase-line is not one).
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for escape sequences
const SGR = /\x1b\[[0-9;]*m/;

/** The demo's temp dirs left in `tmp` (the demo makes them with mkdtemp under TMPDIR). */
const demoDirsIn = (tmp: string) =>
  fs.readdirSync(tmp).filter((name) => name.startsWith('soong-agent-demo-'));

async function demoOnTerminal(env: Record<string, string>) {
  const { stdout } = await promisify(execFile)(
    'python3',
    [PTY_RUN, 'no prompt expected', 'n', '--', process.execPath, CLI, 'demo'],
    { env },
  );
  return JSON.parse(stdout) as { code: number; output: string };
}

describe('soong-agent demo', () => {
  it('shows every deny path of spec §4 in one offline session and completes', async () => {
    const workspace = makeWorkspace();
    const home = path.join(workspace.root, 'demo-home');
    const project = path.join(workspace.root, 'demo-project');
    const result = await runCli(['demo', '--json', '--home', home, '--project', project], {
      env: workspace.env,
      cwd: workspace.root,
    });
    expect(result.code, result.stderr).toBe(0);
    const records = parseRecords(result.stdout);
    const has = (partial: Record<string, unknown>) =>
      records.some((record) =>
        Object.entries(partial).every(
          ([key, value]) => (record as Record<string, unknown>)[key] === value,
        ),
      );

    expect(has({ type: 'hook_finished', event: 'SessionStart' })).toBe(true);
    // a readonly call denied by a hook, a later readonly call still runs, a later write is skipped
    expect(has({ type: 'tool_denied', call_id: 'call_1', tool: 'read_file', source: 'hook' })).toBe(
      true,
    );
    expect(
      has({ type: 'tool_finished', call_id: 'call_2', tool: 'list_dir', is_error: false }),
    ).toBe(true);
    expect(
      has({
        type: 'tool_skipped',
        call_id: 'call_3',
        tool: 'write_file',
        denied_call_id: 'call_1',
      }),
    ).toBe(true);
    // a dangerous bash call denied by a hook halts the batch
    expect(
      has({
        type: 'tool_denied',
        call_id: 'call_4',
        tool: 'bash',
        source: 'hook',
        hook_id: 'block-destructive',
      }),
    ).toBe(true);
    expect(has({ type: 'tool_skipped', call_id: 'call_5', denied_call_id: 'call_4' })).toBe(true);
    // a permission denial
    expect(has({ type: 'permission_denied', call_id: 'call_6', tool: 'edit_file' })).toBe(true);
    expect(has({ type: 'tool_denied', call_id: 'call_6', source: 'permission' })).toBe(true);
    // a large result reaches PostToolUse as an artifact ref
    const large = records.find(
      (record) => record.type === 'tool_finished' && record.call_id === 'call_7',
    );
    expect(large?.type === 'tool_finished' && large.artifact_ref !== undefined).toBe(true);
    expect(
      records.some(
        (record) =>
          record.type === 'hook_log' &&
          record.hook_id === 'audit-log' &&
          record.message.includes('artifact'),
      ),
    ).toBe(true);
    // the Stop hook prevents completion once, then the model runs the tests and finishes
    expect(records.filter((record) => record.type === 'stop_hook_prevented')).toMatchObject([
      { hook_id: 'require-tests', prevented_count: 1 },
    ]);
    expect(has({ type: 'tool_finished', tool: 'run_tests', is_error: false })).toBe(true);
    expect(records.at(-1)).toMatchObject({ type: 'loop_ended', reason: 'completed' });
    // the project files are untouched and the user's own agent home was never created or used
    expect(fs.readFileSync(path.join(project, 'src/greeting.js'), 'utf8')).toContain('Hello');
    expect(fs.existsSync(path.join(workspace.osHome, '.soong-agent'))).toBe(false);
  }, 120_000);

  it('prints the timeline on stderr, the answer on stdout and how to inspect the log when run plainly', async () => {
    const workspace = makeWorkspace();
    const home = path.join(workspace.root, 'demo-home');
    const result = await runCli(
      ['demo', '--home', home, '--project', path.join(workspace.root, 'demo-project')],
      {
        env: workspace.env,
        cwd: workspace.root,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Done.');
    expect(result.stderr).toContain('stop prevented by require-tests (1)');
    // The hint must work where `soong-agent` is not on PATH (a fresh clone): run it as printed.
    const hint = /^inspect it: (.+)$/m.exec(result.stderr)?.[1];
    expect(hint).toBe(`node ${CLI} events --home ${home}`);
    const events = await runShell(hint ?? 'false', { env: workspace.env });
    expect(events.code, events.stderr).toBe(0);
    expect(events.stdout).toContain('denied by permission');
  }, 120_000);

  it('removes its temp dir at the end and says how to keep it when given no --home or --project', async () => {
    const workspace = makeWorkspace();
    const tmp = path.join(workspace.root, 'tmp');
    fs.mkdirSync(tmp);
    const result = await runCli(['demo'], {
      env: { ...workspace.env, TMPDIR: tmp },
      cwd: workspace.root,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Done.');
    expect(demoDirsIn(tmp)).toEqual([]);
    expect(result.stderr).toMatch(/was removed; .* demo --keep$/m);
    expect(result.stderr).not.toContain('inspect it:');
  }, 120_000);

  it('keeps its temp dir and prints an events command that works when given --keep', async () => {
    const workspace = makeWorkspace();
    const tmp = path.join(workspace.root, 'tmp');
    fs.mkdirSync(tmp);
    const result = await runCli(['demo', '--keep'], {
      env: { ...workspace.env, TMPDIR: tmp },
      cwd: workspace.root,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(demoDirsIn(tmp)).toHaveLength(1);
    const hint = /^inspect it: (.+)$/m.exec(result.stderr)?.[1];
    expect(hint).toContain(path.join(tmp, demoDirsIn(tmp)[0] ?? '?', 'home'));
    const events = await runShell(hint ?? 'false', { env: workspace.env });
    expect(events.code, events.stderr).toBe(0);
    expect(events.stdout).toContain('denied by permission');
  }, 120_000);

  it('keeps a --home it was given and removes only its own temp project dir', async () => {
    const workspace = makeWorkspace();
    const tmp = path.join(workspace.root, 'tmp');
    fs.mkdirSync(tmp);
    const home = path.join(workspace.root, 'demo-home');
    const result = await runCli(['demo', '--json', '--home', home], {
      env: { ...workspace.env, TMPDIR: tmp },
      cwd: workspace.root,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(demoDirsIn(tmp)).toEqual([]);
    expect(fs.existsSync(path.join(home, 'sessions'))).toBe(true);
  }, 120_000);

  it('shows the real defaults of --home and --project and the --keep flag when given --help', async () => {
    const result = await runCli(['demo', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('default: a fresh temp dir, removed at the end unless --keep');
    expect(result.stdout).toContain('--keep');
    expect(result.stdout).not.toContain('$SOONG_AGENT_HOME');
  });

  it('writes no colour on a terminal when FORCE_COLOR=0, and colours without it', async () => {
    const workspace = makeWorkspace();
    const env = {
      PATH: workspace.env.PATH ?? '/usr/bin:/bin',
      HOME: workspace.osHome,
      TERM: 'xterm',
    };
    const plain = await demoOnTerminal({ ...env, FORCE_COLOR: '0' });
    expect(plain.code, plain.output).toBe(0);
    expect(plain.output).toContain('stop prevented by require-tests');
    expect(plain.output).not.toMatch(SGR);
    const coloured = await demoOnTerminal(env);
    expect(coloured.code, coloured.output).toBe(0);
    expect(coloured.output).toMatch(SGR);
  }, 240_000);

  it('refuses a --home that is not empty, so it never overwrites a real agent home', async () => {
    const workspace = makeWorkspace({ home: { 'hooks.json': '{}' } });
    const result = await runCli(['demo', '--home', workspace.home], {
      env: workspace.env,
      cwd: workspace.root,
    });
    expect(result.code).toBe(2);
    expect(fs.readFileSync(path.join(workspace.home, 'hooks.json'), 'utf8')).toBe('{}');
  }, 60_000);
});
