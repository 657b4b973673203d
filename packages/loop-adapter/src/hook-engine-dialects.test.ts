import path from 'node:path';
import { type LoadedConfig, loadConfig } from '@soong-agent/config';
import {
  builtInDialects,
  createDialectRegistry,
  type Dialect,
  getDialect,
} from '@soong-agent/dialects';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { createMemoryEventSink } from './event-sink.js';
import { createHookEngine } from './hook-engine.js';
import { hookCommand, writeHome } from './test-helpers/setup.js';

const tempDir = () => makeTempDir();

function withoutDialects(config: LoadedConfig): LoadedConfig {
  const { dialects: _dialects, ...rest } = config;
  return rest;
}
const SESSION_ID = '20261202T135512Z-3f9a1c';

// A dialect of our own: soong's wire, under another name, that denies on exit 3.
const local: Dialect = {
  ...getDialect('soong'),
  name: 'local-test',
  decide: (event, run) =>
    run.exitCode === 3
      ? { decision: 'deny', reason: 'local-test says no', logs: [] }
      : getDialect('soong').decide(event, run),
};

describe('createHookEngine({ dialects })', () => {
  it('runs a hook of a dialect only the registry given knows, resolved when the engine is created', async () => {
    const root = tempDir();
    const { home, projectDir } = writeHome(root, {
      PreToolUse: [
        {
          hooks: [
            {
              command: hookCommand('print-exit.sh', '', '3'),
              name: 'local',
              protocol: 'local-test' as never,
            },
          ],
        },
      ],
    });
    const dialects = createDialectRegistry([...builtInDialects, local]);
    const config = loadConfig({ home, projectDir, homeDir: root, dialects });
    const sink = createMemoryEventSink({ sessionId: SESSION_ID });
    // The engine takes the registry from the config, or from its own option.
    for (const engine of [
      createHookEngine({ config, sink, sessionId: SESSION_ID }),
      createHookEngine({
        config: withoutDialects(config),
        sink,
        sessionId: SESSION_ID,
        dialects,
      }),
    ]) {
      const outcome = await engine.run('PreToolUse', {
        tool: {
          name: 'bash',
          call_id: 'call_1',
          input: { command: 'ls' },
          risk: 'dangerous',
          tags: ['dangerous'],
          paths: [],
        },
      });
      await engine.close();
      expect(outcome).toMatchObject({
        decision: 'deny',
        reason: 'local-test says no',
        hookId: 'local',
      });
    }
    expect(path.isAbsolute(config.hooksFile)).toBe(true);
  }, 60_000);

  it("throws UNKNOWN_DIALECT when created with a registry that lacks a hook's protocol", () => {
    const root = tempDir();
    const { home, projectDir } = writeHome(root, {
      PreToolUse: [{ hooks: [{ command: 'true', protocol: 'claude-code' }] }],
    });
    const config = loadConfig({ home, projectDir, homeDir: root });
    const sink = createMemoryEventSink({ sessionId: SESSION_ID });
    expect(() =>
      createHookEngine({
        config,
        sink,
        sessionId: SESSION_ID,
        dialects: createDialectRegistry([getDialect('soong')]),
      }),
    ).toThrow(expect.objectContaining({ code: 'UNKNOWN_DIALECT' }));
  });
});
