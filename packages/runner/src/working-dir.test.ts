import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { runCommand } from './run-command.js';
import { RunnerError } from './runner-error.js';
import { resolveWorkingDir } from './working-dir.js';

/** A project root and a sibling dir outside it, plus a marker path that a spawn would create. */
function layout(): { root: string; outside: string; marker: string } {
  const base = makeTempDir();
  const root = path.join(base, 'project');
  const outside = path.join(base, 'project-other');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.mkdirSync(outside);
  return { root, outside, marker: path.join(base, 'marker') };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return RunnerError.isInstance(error) ? error.code : undefined;
}

describe('runCommand cwd', () => {
  it('rejects with CWD_INVALID and spawns nothing when cwd is missing', async () => {
    const { root, marker } = layout();
    const code = await codeOf(
      runCommand({ command: ['touch', marker], cwd: path.join(root, 'nope') }),
    );
    expect(code).toBe('CWD_INVALID');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('rejects with CWD_INVALID when cwd is a file', async () => {
    const { root, marker } = layout();
    const file = path.join(root, 'file.txt');
    fs.writeFileSync(file, 'x');
    expect(await codeOf(runCommand({ command: ['touch', marker], cwd: file }))).toBe('CWD_INVALID');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('rejects with CWD_INVALID when cwd escapes allowedRoots with ..', async () => {
    const { root, outside, marker } = layout();
    const cwd = path.join(root, 'src', '..', '..', path.basename(outside));
    const code = await codeOf(
      runCommand({ command: ['touch', marker], cwd, allowedRoots: [root] }),
    );
    expect(code).toBe('CWD_INVALID');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('rejects with CWD_INVALID when cwd is a symlink inside the root pointing outside', async () => {
    const { root, outside, marker } = layout();
    const link = path.join(root, 'escape');
    fs.symlinkSync(outside, link);
    const code = await codeOf(
      runCommand({ command: ['touch', marker], cwd: link, allowedRoots: [root] }),
    );
    expect(code).toBe('CWD_INVALID');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('rejects with CWD_INVALID when cwd shares only a name prefix with the root', async () => {
    const { root, outside, marker } = layout();
    // "project-other" starts with "project" but is not under it.
    const code = await codeOf(
      runCommand({ command: ['touch', marker], cwd: outside, allowedRoots: [root] }),
    );
    expect(code).toBe('CWD_INVALID');
  });

  it('rejects with CWD_INVALID when no allowed root exists', async () => {
    const { root, marker } = layout();
    const code = await codeOf(
      runCommand({
        command: ['touch', marker],
        cwd: root,
        allowedRoots: [path.join(root, 'missing')],
      }),
    );
    expect(code).toBe('CWD_INVALID');
  });

  it('runs when cwd is the root itself or under any of the roots', async () => {
    const { root, outside } = layout();
    const atRoot = await runCommand({ command: ['pwd'], cwd: root, allowedRoots: [outside, root] });
    expect(atRoot.stdout.trim()).toBe(root);
    const below = await runCommand({
      command: ['pwd'],
      cwd: path.join(root, 'src'),
      allowedRoots: [root],
    });
    expect(below.stdout.trim()).toBe(path.join(root, 'src'));
  }, 20_000);

  it('runs when the root is reached through a symlink and cwd through its real path', async () => {
    const { root } = layout();
    const linkToRoot = path.join(path.dirname(root), 'link-to-project');
    fs.symlinkSync(root, linkToRoot);
    const result = await runCommand({
      command: ['true'],
      cwd: path.join(root, 'src'),
      allowedRoots: [linkToRoot],
    });
    expect(result.exitCode).toBe(0);
  }, 20_000);

  it('runs when cwd is a symlink that stays inside the root', async () => {
    const { root } = layout();
    const link = path.join(root, 'src-link');
    fs.symlinkSync(path.join(root, 'src'), link);
    const result = await runCommand({ command: ['true'], cwd: link, allowedRoots: [root] });
    expect(result.exitCode).toBe(0);
    // The spawn uses the real path that was checked, so swapping the link afterwards changes nothing.
    expect(resolveWorkingDir(link, [root])).toBe(fs.realpathSync(path.join(root, 'src')));
    expect(resolveWorkingDir(link, undefined)).toBe(link);
  }, 20_000);
});
