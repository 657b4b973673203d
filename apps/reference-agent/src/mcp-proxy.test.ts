import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readEventLog } from '@soong-agent/loop-adapter';
import type { EventRecord } from '@soong-agent/protocol';
import { allGone, eventually, isAlive, makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { CLI, cliEnv, startCli } from './test-helpers/cli.js';

const TIMEOUT = 120_000;
const TEST_SERVER = fileURLToPath(new URL('./__fixtures__/mcp/test-server.mjs', import.meta.url));
const RAW_SERVER = fileURLToPath(new URL('./__fixtures__/mcp/raw-server.mjs', import.meta.url));
const FILESYSTEM_SERVER = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url),
);

/** Writes `hooks` as the hooks.json under `home`. */
function writeHooks(home: string, hooks: Record<string, unknown>): void {
  fs.writeFileSync(path.join(home, 'hooks.json'), JSON.stringify({ version: 1, hooks }), {
    mode: 0o600,
  });
}

/** A hooks.json with a misspelt event (PreToolUs, at 1:26). */
function breakHooks(home: string): void {
  fs.writeFileSync(path.join(home, 'hooks.json'), '{"version": 1, "hooks": {"PreToolUs": []}}', {
    mode: 0o600,
  });
}

function setup(hooks: Record<string, unknown> = {}, configToml = '') {
  const root = makeTempDir('soong-mcp-proxy-');
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  fs.mkdirSync(home, { mode: 0o700 });
  fs.mkdirSync(project);
  writeHooks(home, hooks);
  if (configToml !== '')
    fs.writeFileSync(path.join(home, 'config.toml'), configToml, { mode: 0o600 });
  return { root, home, project, log: path.join(root, 'upstream.log') };
}

/** An MCP client (the official SDK's) talking to `soong-agent mcp-proxy ... -- upstream...`. */
async function connect(
  where: { root: string; home: string; project: string },
  upstream: string[],
  extra: string[] = [],
) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      CLI,
      'mcp-proxy',
      '--home',
      where.home,
      '--project',
      where.project,
      ...extra,
      '--',
      ...upstream,
    ],
    env: cliEnv(where.root),
    cwd: where.project,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  const client = new Client({ name: 'soong-test-client', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, closed, stderr: () => stderr };
}

function upstreamLog(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n') : [];
}

function upstreamPid(file: string): number {
  const line = upstreamLog(file).find((entry) => entry.startsWith('pid '));
  return Number(line?.slice(4));
}

// An upper bound only (a loaded machine): throws, naming the pid, if the process is still there.
const waitGone = (pid: number) => allGone([pid], { timeoutMs: 30_000 });

function sessionRecords(home: string): EventRecord[] {
  const sessions = fs.readdirSync(path.join(home, 'sessions'));
  expect(sessions).toHaveLength(1);
  return readEventLog(path.join(home, 'sessions', sessions[0] as string, 'events.jsonl')).records;
}

/** The proxy as a child process with raw pipes: the test is a client that need not behave. */
function spawnProxy(where: { root: string; home: string; project: string }, upstream: string[]) {
  const child = spawn(
    process.execPath,
    [CLI, 'mcp-proxy', '--home', where.home, '--project', where.project, '--', ...upstream],
    { cwd: where.project, env: cliEnv(where.root), stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin.on('error', () => {});
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const send = (message: Record<string, unknown>) =>
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  return { child, exited, send, stderr: () => stderr };
}

const INITIALIZE = {
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
};

const deny = (reason: string) => `echo '{"decision":"deny","reason":"${reason}"}'`;

describe('soong-agent mcp-proxy', () => {
  it(
    'passes tools/list and resources through, returns an allowed call and denies a matched one before the upstream sees it',
    async () => {
      const where = setup({
        PreToolUse: [
          {
            matcher: { tool: 'mcp__test-notes__write_note' },
            hooks: [{ name: 'no-notes', type: 'command', command: deny('notes are read-only') }],
          },
        ],
      });
      const { client, transport, closed } = await connect(where, [
        process.execPath,
        TEST_SERVER,
        where.log,
      ]);
      try {
        const tools = await client.listTools();
        expect(tools.tools.map((tool) => tool.name).sort()).toEqual([
          'crash',
          'echo',
          'wait',
          'write_note',
        ]);
        const resource = await client.readResource({ uri: 'note://readme' });
        expect(resource.contents).toEqual([{ uri: 'note://readme', text: 'the readme' }]);
        const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
        expect(echoed).toEqual({ content: [{ type: 'text', text: 'echo: hi' }] });
        const denied = await client.callTool({
          name: 'write_note',
          arguments: { path: 'a.txt', text: 'x' },
        });
        expect(denied).toEqual({
          content: [{ type: 'text', text: 'denied by hook no-notes: notes are read-only' }],
          isError: true,
        });
        // The upstream's side: it got the allowed call only.
        expect(upstreamLog(where.log).filter((line) => line.startsWith('call '))).toEqual([
          'call echo {"text":"hi"}',
        ]);
        expect(fs.existsSync(path.join(where.project, 'a.txt'))).toBe(false);
      } finally {
        await transport.close();
      }
      await closed;
      await waitGone(upstreamPid(where.log));
      expect(isAlive(upstreamPid(where.log))).toBe(false);
      const records = sessionRecords(where.home);
      expect(records.slice(0, 2).map((record) => record.type)).toEqual([
        'session_started',
        'config_loaded',
      ]);
      const tools = records.filter((record) => record.type === 'tool_started');
      expect(tools).toMatchObject([
        { tool: 'mcp__test-notes__echo', risk: 'dangerous', input: { text: 'hi' } },
        { tool: 'mcp__test-notes__write_note', risk: 'dangerous' },
      ]);
      expect(records.filter((record) => record.type === 'tool_denied')).toMatchObject([
        { tool: 'mcp__test-notes__write_note', source: 'hook', hook_id: 'no-notes' },
      ]);
    },
    TIMEOUT,
  );

  it(
    'blocks a write outside the allowed folder with a path_prefix rule and lets one inside through',
    async () => {
      const base = setup();
      const outside = path.join(base.root, 'outside');
      fs.mkdirSync(outside);
      writeHooks(base.home, {
        PreToolUse: [
          {
            matcher: { path_prefix: outside },
            hooks: [{ name: 'fence', type: 'command', command: deny('outside the project') }],
          },
        ],
        PostToolUse: [
          {
            hooks: [
              {
                type: 'command',
                command: `cat >> '${path.join(base.root, 'post.jsonl')}'; echo >> '${path.join(base.root, 'post.jsonl')}'`,
              },
            ],
          },
        ],
      });
      fs.writeFileSync(
        path.join(base.home, 'config.toml'),
        '[mcp.notes]\nrisk = "write"\n[mcp.notes.tools.echo]\nrisk = "readonly"\n',
        { mode: 0o600 },
      );
      const { client, transport, closed } = await connect(
        base,
        [process.execPath, TEST_SERVER, base.log],
        ['--name', 'notes'],
      );
      try {
        const blocked = await client.callTool({
          name: 'write_note',
          arguments: { path: path.join(outside, 'evil.txt'), text: 'x' },
        });
        expect(blocked.isError).toBe(true);
        expect(blocked.content).toEqual([
          { type: 'text', text: 'denied by hook fence: outside the project' },
        ]);
        const written = await client.callTool({
          name: 'write_note',
          arguments: { path: 'inside.txt', text: 'fine' },
        });
        expect(written).toEqual({ content: [{ type: 'text', text: 'wrote inside.txt' }] });
      } finally {
        await transport.close();
      }
      await closed;
      expect(fs.existsSync(path.join(outside, 'evil.txt'))).toBe(false);
      expect(fs.readFileSync(path.join(base.project, 'inside.txt'), 'utf8')).toBe('fine');
      expect(
        upstreamLog(base.log)
          .filter((line) => line.startsWith('call '))
          .map((line) => line.split(' ')[1]),
      ).toEqual(['write_note']);
      // PostToolUse saw the allowed call's result, with the risk class from config.toml.
      const post = fs
        .readFileSync(path.join(base.root, 'post.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(post).toMatchObject([
        {
          event: 'PostToolUse',
          tool: {
            name: 'mcp__notes__write_note',
            risk: 'write',
            paths: [path.join(base.project, 'inside.txt')],
          },
          result: { is_error: false, content: 'wrote inside.txt' },
        },
      ]);
    },
    TIMEOUT,
  );

  it(
    'ends with a clear error and leaves no process when the upstream crashes',
    async () => {
      const where = setup();
      const { client, transport, closed, stderr } = await connect(where, [
        process.execPath,
        TEST_SERVER,
        where.log,
      ]);
      const proxyPid = transport.pid;
      const upstream = upstreamPid(where.log);
      expect(isAlive(upstream)).toBe(true);
      const answer = await client.callTool({ name: 'crash', arguments: {} }).then(
        (result) => result,
        (error: unknown) => error,
      );
      await closed;
      expect(answer).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: expect.stringContaining('exited before it answered') }],
      });
      expect(stderr()).toContain('test-notes: crashing on purpose');
      expect(stderr()).toMatch(/the MCP server ".*test-server\.mjs.*" exited with code 3/);
      if (proxyPid !== null) await waitGone(proxyPid);
      expect(proxyPid === null || !isAlive(proxyPid)).toBe(true);
      expect(isAlive(upstream)).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'leaves no upstream process when the proxy is SIGKILLed',
    async () => {
      const where = setup();
      const { client, transport, closed } = await connect(where, [
        process.execPath,
        TEST_SERVER,
        where.log,
      ]);
      expect(await client.callTool({ name: 'echo', arguments: { text: 'a' } })).toMatchObject({
        content: [{ text: 'echo: a' }],
      });
      const upstream = upstreamPid(where.log);
      const proxyPid = transport.pid;
      expect(proxyPid).not.toBeNull();
      process.kill(proxyPid as number, 'SIGKILL');
      await closed;
      // The runner's watchdog kills the upstream's group when the proxy is gone.
      await waitGone(upstream);
      expect(isAlive(upstream)).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'fails at start with the precise config error and never starts the upstream when hooks.json is broken',
    async () => {
      const where = setup();
      breakHooks(where.home);
      const run = await startCli(
        [
          'mcp-proxy',
          '--home',
          where.home,
          '--project',
          where.project,
          '--',
          process.execPath,
          TEST_SERVER,
          where.log,
        ],
        { env: cliEnv(where.root) },
      ).done;
      expect(run.code).toBe(2);
      // HOME is the temp root, so the file is shown as ~/home/hooks.json, with line:column and key.
      expect(run.stderr).toContain('~/home/hooks.json:1:26 hooks.PreToolUs');
      expect(run.stderr).toContain('"PreToolUse"');
      expect(run.stdout).toBe('');
      expect(fs.existsSync(where.log)).toBe(false);
    },
    TIMEOUT,
  );
});

describe('soong-agent mcp-proxy under attack', () => {
  it(
    'denies read_text_file of ~/app/secrets/key.txt with a path_prefix guard on the expanded path (the server expands ~)',
    async () => {
      const where = setup();
      // HOME is the temp root: the server reads ~/app/secrets/key.txt there.
      fs.mkdirSync(path.join(where.root, 'app', 'secrets'), { recursive: true });
      fs.writeFileSync(path.join(where.root, 'app', 'secrets', 'key.txt'), 'SECRET-KEY');
      writeHooks(where.home, {
        PreToolUse: [
          {
            matcher: { path_prefix: path.join(where.root, 'app', 'secrets') },
            hooks: [{ name: 'secrets', type: 'command', command: deny('no secrets') }],
          },
        ],
      });
      const { client, transport, closed } = await connect(where, [
        process.execPath,
        FILESYSTEM_SERVER,
        path.join(where.root, 'app'),
      ]);
      try {
        const read = await client.callTool({
          name: 'read_text_file',
          arguments: { path: '~/app/secrets/key.txt' },
        });
        expect(JSON.stringify(read)).not.toContain('SECRET-KEY');
        expect(read).toMatchObject({
          isError: true,
          content: [{ text: 'denied by hook secrets: no secrets' }],
        });
        const other = await client.callTool({
          name: 'read_text_file',
          arguments: { path: ' ~/app/secrets/key.txt' },
        });
        expect(JSON.stringify(other)).not.toContain('SECRET-KEY');
        expect(other).toMatchObject({ isError: true });
      } finally {
        await transport.close();
      }
      await closed;
    },
    TIMEOUT,
  );

  it(
    'exits and ends the upstream when the client sends a line over 10 MiB',
    async () => {
      const where = setup();
      const proxy = spawnProxy(where, [process.execPath, TEST_SERVER, where.log]);
      proxy.send(INITIALIZE);
      const upstream = await eventually(
        () => upstreamPid(where.log) > 0 && upstreamPid(where.log),
        {
          timeoutMs: 30_000,
          message: 'the upstream to log its pid',
        },
      );
      expect(upstream).toBeGreaterThan(0);
      // The client keeps its end open: only the oversized line tells the proxy it is broken.
      proxy.child.stdin.write('x'.repeat(11 * 1024 * 1024));
      expect(await proxy.exited).not.toBeNull();
      await waitGone(upstream);
      expect(isAlive(upstream)).toBe(false);
      expect(proxy.stderr()).toContain('maximum size');
      proxy.child.stdin.destroy();
    },
    TIMEOUT,
  );

  it(
    'ends with exit 1 and leaves no upstream when the client stops reading while the upstream floods',
    async () => {
      const where = setup();
      const proxy = spawnProxy(where, [process.execPath, RAW_SERVER, where.log]);
      proxy.child.stdout.pause();
      proxy.send(INITIALIZE);
      proxy.send({ method: 'notifications/initialized' });
      proxy.send({ id: 1, method: 'tools/call', params: { name: 'flood', arguments: {} } });
      expect(await proxy.exited).toBe(1);
      expect(proxy.stderr()).toContain('the client has not read');
      const upstream = upstreamPid(where.log);
      await waitGone(upstream);
      expect(isAlive(upstream)).toBe(false);
      proxy.child.stdout.destroy();
    },
    TIMEOUT,
  );

  it(
    'answers initialize with the config error text when hooks.json is broken',
    async () => {
      const where = setup();
      breakHooks(where.home);
      const answer = await connect(where, [process.execPath, TEST_SERVER, where.log]).then(
        () => 'connected',
        (error: unknown) => String(error),
      );
      expect(answer).toContain('~/home/hooks.json:1:26 hooks.PreToolUs');
      expect(fs.existsSync(where.log)).toBe(false);
    },
    TIMEOUT,
  );
});

describe('soong-agent mcp-proxy sessions', () => {
  it(
    'kills the hook, forwards nothing and exits when the client leaves while a PreToolUse hook runs',
    async () => {
      const where = setup();
      const pidFile = path.join(where.root, 'hook.pid');
      const go = path.join(where.root, 'go');
      writeHooks(where.home, {
        PreToolUse: [
          {
            hooks: [
              {
                type: 'command',
                command: `echo $$ > '${pidFile}'; while [ ! -e '${go}' ]; do sleep 0.02; done; echo '{}'`,
              },
            ],
          },
        ],
      });
      const proxy = spawnProxy(where, [process.execPath, TEST_SERVER, where.log]);
      proxy.send(INITIALIZE);
      proxy.send({ method: 'notifications/initialized' });
      proxy.send({
        id: 1,
        method: 'tools/call',
        params: { name: 'write_note', arguments: { path: 'late.txt', text: 'x' } },
      });
      await eventually(() => fs.existsSync(pidFile), { timeoutMs: 30_000 });
      const hook = Number(fs.readFileSync(pidFile, 'utf8'));
      const upstream = upstreamPid(where.log);
      proxy.child.stdin.end();
      expect(await proxy.exited).toBe(0);
      await waitGone(hook);
      expect(isAlive(hook)).toBe(false);
      fs.writeFileSync(go, '');
      await waitGone(upstream);
      expect(isAlive(upstream)).toBe(false);
      expect(upstreamLog(where.log).filter((line) => line.startsWith('call '))).toEqual([]);
      expect(fs.existsSync(path.join(where.project, 'late.txt'))).toBe(false);
    },
    TIMEOUT,
  );
});
