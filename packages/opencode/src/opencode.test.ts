import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { eventually } from '@soong-agent/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { type FakeModel, type FakeStep, startFakeModel } from './test-helpers/fake-model.js';
import {
  addHooks,
  eventRecords,
  finished,
  importClaudeGuard,
  killAllOpencode,
  killGroup,
  makeWorld,
  type OpencodeWorld,
  runOpencode,
  startOpencode,
} from './test-helpers/opencode-host.js';

// The real OpenCode (opencode-ai from npm, cached outside the repo) against a fake model on
// 127.0.0.1. The three sessions are independent and run side by side.

const RM_VICTIM: FakeStep = {
  tool: 'bash',
  args: { command: 'rm -rf ./victim', description: 'clean up' },
};
const PROMPT = 'clean up the victim folder';
/** A generous bound per case (OpenCode starts in 5-20 s on a loaded machine); a case must end. */
const CASE_BOUND_MS = 400_000;

const models: FakeModel[] = [];
const worlds: OpencodeWorld[] = [];
afterAll(async () => {
  killAllOpencode();
  await Promise.all(models.map((model) => model.close()));
  for (const world of worlds) fs.rmSync(world.root, { recursive: true, force: true });
});

async function setUp(steps: FakeStep[], plugin: boolean) {
  const model = await startFakeModel(steps);
  models.push(model);
  const world = makeWorld({ baseURL: model.baseURL, plugin });
  worlds.push(world);
  return { model, world };
}

const victimExists = (world: OpencodeWorld) =>
  fs.existsSync(path.join(world.project, 'victim', 'file'));
const toolMessages = (model: FakeModel) =>
  model.requests.flatMap((request) =>
    request.messages.filter((message) => message.role === 'tool'),
  );

describe('SoongHooks in the real OpenCode', () => {
  it.concurrent(
    'deletes the folder without the plugin (the control)',
    async () => {
      const { model, world } = await setUp([RM_VICTIM, { text: 'done' }], false);
      const run = await runOpencode(world, ['run', PROMPT]);
      expect(run.code, run.stderr.slice(-2000)).toBe(0);
      expect(await model.agentRequests(2)).toHaveLength(2);
      expect(victimExists(world)).toBe(false);
      console.info(`control run: ${run.durationMs} ms`);
    },
    CASE_BOUND_MS,
  );

  it.concurrent(
    'stops rm -rf with an imported Claude Code guard, shows PostToolUse the result and keeps the session going once for a Stop hook',
    async () => {
      const { model, world } = await setUp(
        [
          RM_VICTIM,
          { tool: 'bash', args: { command: 'echo hello-from-bash', description: 'greet' } },
          { text: 'all done' },
          { text: 'tests run, done now' },
        ],
        true,
      );
      importClaudeGuard(world);
      const postLog = path.join(world.root, 'post-tool-use.jsonl');
      const stopMarker = path.join(world.root, 'stopped-once');
      const endLog = path.join(world.root, 'session-end.json');
      addHooks(world, {
        PostToolUse: [
          {
            matcher: { tool: ['bash'] },
            hooks: [{ type: 'command', command: `cat >> '${postLog}'; echo >> '${postLog}'` }],
          },
        ],
        SessionEnd: [{ hooks: [{ type: 'command', command: `cat > '${endLog}'` }] }],
        Stop: [
          {
            hooks: [
              {
                type: 'command',
                command: `cat >/dev/null; if [ -e '${stopMarker}' ]; then exit 0; fi; touch '${stopMarker}'; echo '{"decision":"deny","reason":"run the tests first"}'`,
              },
            ],
          },
        ],
      });
      // A server, as OpenCode's TUI runs one: `opencode run` itself ends at the first idle.
      const port = await freePort();
      const server = startOpencode(world, [
        'serve',
        '--port',
        String(port),
        '--hostname',
        '127.0.0.1',
      ]);
      const served = finished(server);
      try {
        await waitForListening(port);
        const started = performance.now();
        const run = await runOpencode(world, [
          'run',
          '--attach',
          `http://127.0.0.1:${port}`,
          PROMPT,
        ]);
        expect(run.code, run.stderr.slice(-2000)).toBe(0);
        // The Stop hook's continuation: a fourth request, after the run ended.
        const requests = await model.agentRequests(4);
        const sessionMs = Math.round(performance.now() - started);

        expect(victimExists(world)).toBe(true);
        const denied = requests[1]?.messages.at(-1);
        expect(denied?.role).toBe('tool');
        expect(String(denied?.content)).toContain('rm -rf is blocked by the Claude Code guard');
        expect(
          toolMessages(model).some((message) =>
            String(message.content).includes('hello-from-bash'),
          ),
        ).toBe(true);
        const continuation = requests[3]?.messages.at(-1);
        expect(continuation?.role).toBe('user');
        expect(JSON.stringify(continuation?.content)).toContain('run the tests first');

        await waitFor(
          () => eventRecords(world)[0]?.some((record) => record.type === 'loop_ended') === true,
        );
        const records = eventRecords(world);
        expect(records).toHaveLength(1);
        const types = (records[0] ?? []).map((record) => record.type);
        expect(types.slice(0, 3)).toEqual([
          'session_started',
          'config_loaded',
          'user_prompt_submitted',
        ]);
        expect(records[0]).toContainEqual(
          expect.objectContaining({
            type: 'tool_denied',
            tool: 'bash',
            reason: 'rm -rf is blocked by the Claude Code guard',
          }),
        );
        expect(records[0]).toContainEqual(
          expect.objectContaining({ type: 'stop_hook_prevented', reason: 'run the tests first' }),
        );
        expect(types.filter((type) => type === 'tool_finished')).toHaveLength(1);

        const post = fs
          .readFileSync(postLog, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line));
        expect(post).toHaveLength(1);
        expect(post[0]).toMatchObject({
          event: 'PostToolUse',
          tool: { name: 'bash', input: { command: 'echo hello-from-bash' } },
          result: { is_error: false, content: 'hello-from-bash\n' },
        });
        console.info(
          `guarded session (run --attach until the Stop continuation answered): ${sessionMs} ms`,
        );

        // OpenCode disposes the instance (as at a clean shutdown): the plugin ends the session.
        const disposed = await fetch(
          `http://127.0.0.1:${port}/instance/dispose?directory=${encodeURIComponent(world.project)}`,
          { method: 'POST' },
        );
        expect(disposed.ok).toBe(true);
        await waitFor(() => fs.existsSync(endLog) && fs.readFileSync(endLog, 'utf8') !== '');
        expect(JSON.parse(fs.readFileSync(endLog, 'utf8'))).toMatchObject({
          event: 'SessionEnd',
          reason: 'completed',
        });
      } finally {
        killGroup(server, 'SIGTERM');
        // A grace period for SIGTERM, then SIGKILL: a bound on a hang, not a wait for an event.
        const end = await Promise.race([
          served,
          new Promise((resolve) => setTimeout(resolve, 10_000)),
        ]);
        if (end === undefined) killGroup(server);
        const log = (await served).stderr;
        // OpenCode's own log says how many hooks are active and where the event log is.
        expect(log).toMatch(/soong-agent hooks: 4 hooks in 4 rules active from .*hooks\.json/);
        expect(log).toContain(path.join(world.soongHome, 'sessions'));
      }
    },
    CASE_BOUND_MS,
  );

  it.concurrent(
    'stops every tool call with the config error when hooks.json is broken',
    async () => {
      const { model, world } = await setUp([RM_VICTIM, { text: 'done' }], true);
      // Line 3, column 5: a key without quotes.
      fs.writeFileSync(
        path.join(world.soongHome, 'hooks.json'),
        '{\n  "version": 1,\n    hooks: {}\n}\n',
      );
      const run = await runOpencode(world, ['run', PROMPT]);
      expect(run.code, run.stderr.slice(-2000)).toBe(0);
      expect(victimExists(world)).toBe(true);
      const refusal = String(toolMessages(model)[0]?.content);
      expect(refusal).toContain('soong-agent hooks could not load');
      expect(refusal).toMatch(/hooks\.json:3:5/);
      // The factory did not throw: the plugin loaded and logged the error in OpenCode's log.
      expect(run.stderr).toMatch(/level=ERROR.*soong-agent hooks could not load.*hooks\.json:3:5/);
      console.info(`broken-config run: ${run.durationMs} ms`);
    },
    CASE_BOUND_MS,
  );
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForListening(port: number): Promise<void> {
  await waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      }),
  );
}

// The bound is generous (a shared, loaded machine running OpenCode); it only ends a hang.
function waitFor(predicate: () => boolean | Promise<boolean>): Promise<true> {
  return eventually(predicate, { timeoutMs: 120_000, intervalMs: 100 });
}
