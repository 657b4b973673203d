import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir, writeTree } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { createTestTools } from '../test-helpers/tools.js';
import { argumentEnvName, createDeclarativeTool } from './declarative.js';
import { compileGrepPattern } from './grep.js';
import { BUILT_IN_TOOL_NAMES, createToolRegistry } from './registry.js';
import type { AgentTool } from './types.js';

function setUp(settings: Parameters<typeof createToolRegistry>[1] = { tools: [] }) {
  const root = makeTempDir();
  const projectDir = path.join(root, 'project');
  const agentHome = path.join(root, 'home');
  fs.mkdirSync(projectDir);
  fs.mkdirSync(agentHome);
  const { context, tools, call } = createTestTools({ projectDir, agentHome, settings });
  return { root, projectDir, agentHome, context, tools, call };
}

describe('createToolRegistry', () => {
  it('offers the six built-in tools of spec §6 with their risk classes when no tools are configured', () => {
    const { tools } = setUp();
    expect(BUILT_IN_TOOL_NAMES).toEqual([
      'read_file',
      'list_dir',
      'grep',
      'write_file',
      'edit_file',
      'bash',
    ]);
    expect(Object.fromEntries([...tools.values()].map((tool) => [tool.name, tool.risk]))).toEqual({
      read_file: 'readonly',
      list_dir: 'readonly',
      grep: 'readonly',
      write_file: 'write',
      edit_file: 'write',
      bash: 'dangerous',
    });
  });

  it('resolves the call path against the project dir when the path is relative', () => {
    const { tools, projectDir } = setUp();
    expect(tools.get('read_file')?.paths?.({ path: 'src/a.ts' })).toEqual([
      path.join(projectDir, 'src/a.ts'),
    ]);
    expect(tools.get('grep')?.paths?.({ pattern: 'x' })).toEqual([projectDir]);
    expect(tools.get('bash')?.paths?.({ command: 'ls' })).toEqual([]);
  });

  it('throws CONFIG when a declarative tool reuses a built-in name', () => {
    const tool = {
      name: 'bash',
      description: '',
      command: 'true',
      risk: 'readonly' as const,
      tags: [],
      timeout: 5,
      parameters: {},
    };
    expect(() => setUp({ tools: [tool] })).toThrow(expect.objectContaining({ code: 'CONFIG' }));
  });
});

describe('read_file', () => {
  it('returns the selected lines when offset and limit are given', async () => {
    const { call, projectDir } = setUp();
    writeTree(projectDir, { 'a.txt': 'one\ntwo\nthree\nfour' });
    expect(await call('read_file', { path: 'a.txt', offset: 2, limit: 2 })).toEqual({
      content: 'two\nthree\n[1 more lines; continue with offset 4]',
      isError: false,
    });
  });

  it('returns an error result when the input is invalid or the file is missing', async () => {
    const { call } = setUp();
    expect((await call('read_file', {})).isError).toBe(true);
    expect((await call('read_file', { path: 'a', extra: 1 })).isError).toBe(true);
    expect(await call('read_file', { path: 'missing.txt' })).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^ENOENT: no such file/),
    });
  });

  it('returns an input error result when the path is empty', async () => {
    const { call } = setUp();
    const inputs: Record<string, Record<string, string>> = {
      read_file: { path: '' },
      list_dir: { path: '' },
      grep: { pattern: 'x', path: '' },
      write_file: { path: '', content: 'x' },
      edit_file: { path: '', old_string: 'x', new_string: 'y' },
    };
    for (const [tool, input] of Object.entries(inputs)) {
      expect(await call(tool, input), tool).toEqual({
        isError: true,
        content: 'invalid input: "path" must not be empty',
      });
    }
  });

  it('returns a bounded is_error result for /proc/self/pagemap, which stat reports as 0 bytes and never ends', async () => {
    const { call } = setUp();
    expect(fs.statSync('/proc/self/pagemap').size).toBe(0);
    const before = process.memoryUsage().rss;
    const result = await call('read_file', { path: '/proc/self/pagemap' });
    expect(result.isError).toBe(true);
    // The cap is 16 MiB: the agent read at most that much, not the whole address space.
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
  });
});

describe('list_dir', () => {
  it('lists entries sorted with a slash after directories when given a directory', async () => {
    const { call, projectDir } = setUp();
    writeTree(projectDir, { 'b.txt': '', 'a/x.txt': '' });
    expect(await call('list_dir', { path: '.' })).toEqual({ content: 'a/\nb.txt', isError: false });
  });
});

describe('grep', () => {
  it('finds substring matches with file and line and skips node_modules when searching a tree', async () => {
    const { call, projectDir } = setUp();
    writeTree(projectDir, {
      'src/a.ts': 'const x = 1;\nTODO fix\n',
      'node_modules/m/i.js': 'TODO',
    });
    expect(await call('grep', { pattern: 'TODO' })).toEqual({
      content: 'src/a.ts:2: TODO fix',
      isError: false,
    });
  });

  it('treats /source/flags as a JavaScript regex and anything else literally', () => {
    expect(compileGrepPattern('/^to+do$/i')('TOODO')).toBe(true);
    expect(compileGrepPattern('a.c')('abc')).toBe(false);
    expect(compileGrepPattern('a.c')('xa.cx')).toBe(true);
  });

  it('searches /proc/kallsyms only up to its cap when stat reports 0 bytes', async () => {
    const { call } = setUp();
    expect(fs.statSync('/proc/kallsyms').size).toBe(0);
    // kallsyms holds megabytes, past grep's 1 MiB per-file cap: skipped, as any too-large file.
    for (const pattern of ['T']) {
      expect(await call('grep', { pattern, path: '/proc/kallsyms' })).toEqual({
        content: 'no matches (1 files searched)',
        isError: false,
      });
    }
  });

  it('returns an error result when the regex is invalid', async () => {
    const { call } = setUp();
    expect((await call('grep', { pattern: '/(/' })).isError).toBe(true);
  });
});

describe('write_file', () => {
  it('writes inside the project when the path is relative', async () => {
    const { call, projectDir } = setUp();
    expect((await call('write_file', { path: 'src/new.ts', content: 'x' })).isError).toBe(false);
    expect(fs.readFileSync(path.join(projectDir, 'src/new.ts'), 'utf8')).toBe('x');
  });

  it('writes a file whose name starts with two dots when it lies inside the project', async () => {
    const { call, projectDir } = setUp();
    expect((await call('write_file', { path: '..notes', content: 'x' })).isError).toBe(false);
    expect(fs.readFileSync(path.join(projectDir, '..notes'), 'utf8')).toBe('x');
  });

  it('refuses paths inside the agent home when reached directly, through .. or through a symlink', async () => {
    const { call, projectDir, agentHome } = setUp();
    fs.symlinkSync(agentHome, path.join(projectDir, 'home-link'));
    for (const target of [
      path.join(agentHome, 'hooks.json'),
      '../home/hooks.json',
      'home-link/hooks.json',
      'home-link/new/dir/x',
    ]) {
      const result = await call('write_file', { path: target, content: '{}' });
      expect(result.isError, target).toBe(true);
      expect(result.content).toContain('agent home');
    }
    expect(fs.readdirSync(agentHome)).toEqual([]);
  });

  it('refuses paths outside the project dir when they are not in the agent home', async () => {
    const { call, root } = setUp();
    const result = await call('write_file', {
      path: path.join(root, 'elsewhere.txt'),
      content: '',
    });
    expect(result).toMatchObject({
      isError: true,
      content: expect.stringContaining('outside the project'),
    });
    expect(fs.existsSync(path.join(root, 'elsewhere.txt'))).toBe(false);
  });
});

describe('edit_file', () => {
  it('replaces the one occurrence when old_string is unique', async () => {
    const { call, projectDir } = setUp();
    writeTree(projectDir, { 'a.ts': 'let a = 1;\nlet b = 2;\n' });
    expect(
      (await call('edit_file', { path: 'a.ts', old_string: 'b = 2', new_string: 'b = 3' })).isError,
    ).toBe(false);
    expect(fs.readFileSync(path.join(projectDir, 'a.ts'), 'utf8')).toBe('let a = 1;\nlet b = 3;\n');
  });

  it('returns an error and leaves the file when old_string is missing or ambiguous', async () => {
    const { call, projectDir } = setUp();
    writeTree(projectDir, { 'a.ts': 'x x' });
    expect(
      (await call('edit_file', { path: 'a.ts', old_string: 'y', new_string: 'z' })).isError,
    ).toBe(true);
    expect(
      (await call('edit_file', { path: 'a.ts', old_string: 'x', new_string: 'z' })).isError,
    ).toBe(true);
    expect(fs.readFileSync(path.join(projectDir, 'a.ts'), 'utf8')).toBe('x x');
  });

  it('refuses a file inside the agent home', async () => {
    const { call, agentHome } = setUp();
    writeTree(agentHome, { 'hooks.json': '{"a":1}' });
    const result = await call('edit_file', {
      path: path.join(agentHome, 'hooks.json'),
      old_string: '1',
      new_string: '2',
    });
    expect(result.isError).toBe(true);
    expect(fs.readFileSync(path.join(agentHome, 'hooks.json'), 'utf8')).toBe('{"a":1}');
  });
});

describe('bash', () => {
  it('runs in the project dir with the SOONG_AGENT variables and no unlisted parent variables', async () => {
    const { call, projectDir } = setUp();
    process.env.SOONG_TEST_SECRET = 'hunter2';
    try {
      const result = await call('bash', {
        command: 'pwd; echo "$SOONG_AGENT_PROJECT_DIR"; echo "secret=$SOONG_TEST_SECRET"',
      });
      expect(result).toEqual({
        content: `${projectDir}\n${projectDir}\nsecret=\n`,
        isError: false,
      });
    } finally {
      delete process.env.SOONG_TEST_SECRET;
    }
  }, 20_000);

  it('returns an is_error result with the exit code and output when the command fails', async () => {
    const { call } = setUp();
    const result = await call('bash', { command: 'echo partial; exit 7' });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('exit code 7');
    expect(result.content).toContain('partial');
  }, 20_000);

  it('carries the real end of the output when a failing command floods past max_output_bytes', async () => {
    const { context } = setUp();
    const tools = createToolRegistry({ ...context, maxOutputBytes: 4096 }, { tools: [] });
    const result = await (tools.get('bash') as AgentTool).execute(
      { command: 'seq 1 20000; echo LAST-STDOUT; seq 1 20000 >&2; echo LAST-STDERR >&2; exit 3' },
      { callId: 'call_1' },
    );
    expect(result.isError).toBe(true);
    expect(result.content).toContain('exit code 3');
    expect(result.content).toContain('LAST-STDOUT');
    expect(result.content).toContain('LAST-STDERR');
    expect(result.content.length).toBeLessThan(4200);
    expect(result.content).not.toContain('\n1\n2\n3\n');
  }, 20_000);

  it('rejects a timeout above 3600 seconds', async () => {
    const { call } = setUp();
    expect((await call('bash', { command: 'true', timeout: 3601 })).isError).toBe(true);
  });
});

describe('createDeclarativeTool', () => {
  const config = {
    name: 'echo_args',
    description: 'echo',
    command: 'cat; echo; echo "[$SOONG_ARG_FILTER_NAME][$SOONG_ARG_COUNT]"',
    risk: 'readonly' as const,
    tags: ['test'],
    timeout: 10,
    parameters: {
      'filter-name': { type: 'string' as const, required: true, description: 'f' },
      count: { type: 'number' as const, required: false },
    },
  };

  it('passes arguments as JSON on stdin and as SOONG_ARG_ variables when called', async () => {
    const { context } = setUp();
    const tool = createDeclarativeTool(config, context);
    expect(argumentEnvName('filter-name')).toBe('SOONG_ARG_FILTER_NAME');
    const result = await tool.execute(
      { 'filter-name': '$(echo pwned)', count: 2 },
      { callId: 'call_1' },
    );
    expect(result).toEqual({
      content: '{"filter-name":"$(echo pwned)","count":2}\n[$(echo pwned)][2]\n',
      isError: false,
    });
    expect(tool.paths?.({})).toEqual([]);
    expect(tool.tags).toEqual(['test']);
  }, 20_000);

  it('shows the model a JSON Schema of the declared parameters', () => {
    const { context } = setUp();
    expect(createDeclarativeTool(config, context).inputSchema).toEqual({
      type: 'object',
      properties: {
        'filter-name': { type: 'string', description: 'f' },
        count: { type: 'number' },
      },
      required: ['filter-name'],
      additionalProperties: false,
    });
  });

  it('returns an error result without running anything when arguments do not match the parameters', async () => {
    const { context } = setUp();
    const tool = createDeclarativeTool(config, context);
    expect((await tool.execute({ count: 1 }, { callId: 'c' })).isError).toBe(true);
    expect((await tool.execute({ 'filter-name': 'a', count: 'x' }, { callId: 'c' })).isError).toBe(
      true,
    );
    expect((await tool.execute({ 'filter-name': 'a', other: 1 }, { callId: 'c' })).isError).toBe(
      true,
    );
  });
});
