import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { createClaudeCodeTranscript } from './claude-code-transcript.js';
import { LoopAdapterError } from './loop-adapter-error.js';

const tempDir = () => makeTempDir();

const lines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('createClaudeCodeTranscript', () => {
  it('writes Claude Code lines with Claude Code tool names and bounded results, mode 0600', () => {
    const root = tempDir();
    const file = path.join(root, 'sessions', 's', 'transcript.jsonl');
    const transcript = createClaudeCodeTranscript(file, { projectDir: '/p', resultHeadBytes: 8 });
    transcript.user('fix it');
    transcript.user('fix it');
    expect(lines(file)).toHaveLength(2);
    transcript.assistant('Reading.', [
      { id: 'call_1', name: 'read_file', input: { path: 'src/a.ts' } },
      { id: 'call_2', name: 'run_tests', input: {} },
    ]);
    transcript.toolResults([
      {
        callId: 'call_1',
        name: 'read_file',
        content: 'x'.repeat(100),
        isError: false,
        status: 'ok',
        bytes: 100,
      },
      {
        callId: 'call_2',
        name: 'run_tests',
        content: 'fail',
        isError: true,
        status: 'error',
        bytes: 4,
      },
    ]);
    transcript.assistant('All done.');
    transcript.close();
    transcript.close();
    const written = lines(file);
    expect(written[0]).toEqual({ type: 'user', message: { role: 'user', content: 'fix it' } });
    expect(written[2]).toEqual({
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'call_1', name: 'Read', input: { file_path: '/p/src/a.ts' } },
          { type: 'tool_use', id: 'call_2', name: 'run_tests', input: {} },
        ],
      },
    });
    const results = written[3].message.content;
    expect(results[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'call_1',
      is_error: false,
    });
    expect(results[0].content.length).toBeLessThan(100);
    expect(results[1]).toEqual({
      type: 'tool_result',
      tool_use_id: 'call_2',
      content: 'fail',
      is_error: true,
    });
    expect(written[4]).toEqual({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text: 'All done.' }] },
    });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(() => transcript.user('late')).toThrow(LoopAdapterError);
  });

  it('refuses to follow a symlink planted at the transcript path', () => {
    const root = tempDir();
    const target = path.join(root, 'hooks.json');
    fs.writeFileSync(target, '{}');
    const file = path.join(root, 'transcript.jsonl');
    fs.symlinkSync(target, file);
    expect(() => createClaudeCodeTranscript(file, { projectDir: root })).toThrow(/symbolic link/);
    expect(fs.readFileSync(target, 'utf8')).toBe('{}');
  });

  it('still writes the line when a tool input is nested too deep to serialise', () => {
    const root = tempDir();
    const file = path.join(root, 'transcript.jsonl');
    let deep: unknown = [];
    for (let depth = 0; depth < 100_000; depth += 1) deep = [deep];
    const transcript = createClaudeCodeTranscript(file, { projectDir: root });
    transcript.assistant('x', [{ id: 'c1', name: 'read_file', input: { path: 'a', deep } }]);
    transcript.close();
    const [line] = lines(file);
    expect(line.message.content[1]).toMatchObject({
      type: 'tool_use',
      id: 'c1',
      name: 'Read',
      input: { unserializable_input: 'nested more than 64 levels deep; not written' },
    });
  });
});

describe('createClaudeCodeTranscript({ readers })', () => {
  const big = 'y'.repeat(50_000);

  it('keeps each string of a tool input at its head and tail when no hook of the session can read it', () => {
    const file = path.join(tempDir(), 'transcript.jsonl');
    const transcript = createClaudeCodeTranscript(file, {
      projectDir: '/p',
      resultHeadBytes: 16,
      readers: false,
    });
    transcript.toolUse({
      id: 'call_1',
      name: 'write_file',
      input: { path: 'a.txt', content: big },
    });
    transcript.toolUse(
      { id: 'call_2', name: 'bash', input: { command: `echo ${big}` } },
      undefined,
      JSON.stringify({ command: `echo ${big}` }),
    );
    transcript.toolUse({ id: 'call_3', name: 'read_file', input: 'not an object' });
    transcript.close();
    const [write, bash, odd] = lines(file).map((line) => line.message.content[0]);
    expect(write).toMatchObject({ name: 'Write', input: { file_path: '/p/a.txt' } });
    expect(write.input.content.length).toBeLessThan(200);
    expect(write.input.content.startsWith('y'.repeat(16))).toBe(true);
    expect(bash.name).toBe('Bash');
    expect(bash.input.command.length).toBeLessThan(200);
    expect(odd.input).toBe('not an object');
    expect(fs.statSync(file).size).toBeLessThan(2_000);
  });

  it('writes tool inputs whole when a hook of the session can read it', () => {
    const file = path.join(tempDir(), 'transcript.jsonl');
    const transcript = createClaudeCodeTranscript(file, { projectDir: '/p', resultHeadBytes: 16 });
    transcript.toolUse({
      id: 'call_1',
      name: 'write_file',
      input: { path: 'a.txt', content: big },
    });
    transcript.close();
    const [write] = lines(file).map((line) => line.message.content[0]);
    expect(write.input).toEqual({ file_path: '/p/a.txt', content: big });
  });

  it('writes a note for an input JSON cannot hold, and the line still', () => {
    const file = path.join(tempDir(), 'transcript.jsonl');
    const transcript = createClaudeCodeTranscript(file, { projectDir: '/p' });
    transcript.toolUse({ id: 'call_1', name: 'bash', input: { command: 'x', n: 10n } });
    transcript.toolUse({ id: 'call_2', name: 'bash', input: { command: 'ok' } });
    transcript.close();
    const [bad, good] = lines(file).map((line) => line.message.content[0]);
    expect(bad).toMatchObject({ id: 'call_1', name: 'Bash' });
    expect(typeof bad.input.unserializable_input).toBe('string');
    expect(good.input).toEqual({ command: 'ok' });
  });
});
