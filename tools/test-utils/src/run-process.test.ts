import { describe, expect, it } from 'vitest';
import { minimalEnv, runProcess, startProcess } from './run-process.js';

describe('runProcess', () => {
  it('collects stdout and stderr and the exit code of a real process fed on stdin', async () => {
    const run = await runProcess('/bin/sh', ['-c', 'cat; echo oops >&2; exit 3'], {
      stdin: 'hello',
    });
    expect(run).toEqual({ code: 3, signal: null, stdout: 'hello', stderr: 'oops\n' });
  });

  it('gives the process only the environment passed (a PATH by default)', async () => {
    const run = await runProcess(
      '/bin/sh',
      ['-c', 'echo "$MARK"; [ -z "$HOME" ] && echo no-home'],
      {
        env: minimalEnv({ MARK: 'x' }),
      },
    );
    expect(run.stdout).toBe('x\nno-home\n');
  });

  it('rejects when the file cannot be started', async () => {
    await expect(runProcess('/nonexistent/program', [])).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('startProcess', () => {
  it('reports the signal of a process it killed', async () => {
    const started = startProcess('/bin/sh', ['-c', 'sleep 30']);
    started.child.kill('SIGTERM');
    expect(await started.done).toMatchObject({ code: null, signal: 'SIGTERM' });
  });
});
