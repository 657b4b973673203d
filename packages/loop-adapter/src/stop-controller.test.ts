import fs from 'node:fs';
import path from 'node:path';
import { HookContextNodeSchema, renderHookContext } from '@soong-agent/protocol';
import { StopInputSchema } from '@soong-agent/protocol/internal';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { LoopAdapterError } from './loop-adapter-error.js';
import { hookContextToMessage } from './observe.js';
import { createStopController } from './stop-controller.js';
import { hookCommand, recordsOf, recordTypes, setup } from './test-helpers/setup.js';

const tempDir = () => makeTempDir();
const PROCESS_TIMEOUT = 60_000;

describe('createStopController', () => {
  it(
    'returns a hook-context node that becomes a user message when a Stop hook denies',
    async () => {
      const { engine, sink } = setup(tempDir(), {
        Stop: [{ hooks: [{ command: hookCommand('deny.sh', 'tests fail'), name: 'tests' }] }],
      });
      const stop = createStopController({ engine, sink, limit: 5 });
      const decision = await stop.onModelStop('all done');
      if (!decision.continue) throw new Error('expected the stop to be prevented');
      expect(HookContextNodeSchema.parse(decision.node)).toEqual({
        kind: 'hook_context',
        event: 'Stop',
        hook_id: 'tests',
        reason: 'tests fail',
      });
      const message = hookContextToMessage(decision.node);
      expect(message).toEqual({ role: 'user', content: renderHookContext(decision.node) });
      expect(message.content).toContain('tests fail');
      expect(message.content).toContain('tests');
      expect(recordTypes(sink.records)).toEqual([
        'hook_started',
        'hook_finished',
        'hook_denied',
        'stop_hook_prevented',
      ]);
      expect(recordsOf(sink.records, 'stop_hook_prevented')[0]).toMatchObject({
        hook_id: 'tests',
        event: 'Stop',
        reason: 'tests fail',
        prevented_count: 1,
      });
      expect(stop.preventedCount).toBe(1);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'lets the stop through without running hooks when the loop limit is reached',
    async () => {
      const { engine, sink } = setup(tempDir(), {
        Stop: [{ hooks: [{ command: hookCommand('deny.sh', 'never') }] }],
      });
      const stop = createStopController({ engine, sink, limit: 2 });
      expect((await stop.onModelStop('a')).continue).toBe(true);
      expect((await stop.onModelStop('b')).continue).toBe(true);
      expect(await stop.onModelStop('c')).toEqual({ continue: false });
      const prevented = ['hook_started', 'hook_finished', 'hook_denied', 'stop_hook_prevented'];
      expect(recordTypes(sink.records)).toEqual([
        ...prevented,
        ...prevented,
        'stop_hook_limit_reached',
      ]);
      expect(recordsOf(sink.records, 'stop_hook_prevented').map((r) => r.prevented_count)).toEqual([
        1, 2,
      ]);
      expect(recordsOf(sink.records, 'stop_hook_limit_reached')[0]).toMatchObject({
        limit: 2,
        prevented_count: 2,
      });

      stop.reset();
      expect(stop.preventedCount).toBe(0);
      expect((await stop.onModelStop('d')).continue).toBe(true);
      expect(recordsOf(sink.records, 'stop_hook_prevented').at(-1)?.prevented_count).toBe(1);
    },
    PROCESS_TIMEOUT,
  );

  it('throws INVALID_OPTIONS when the limit is negative or not an integer', () => {
    const { engine, sink } = setup(tempDir(), {});
    for (const limit of [-1, 1.5, Number.NaN]) {
      let code: string | undefined;
      try {
        createStopController({ engine, sink, limit });
      } catch (error) {
        code = LoopAdapterError.isInstance(error) ? error.code : undefined;
      }
      expect(code).toBe('INVALID_OPTIONS');
    }
  });

  it(
    'never lets the stop through by count when the limit is 0',
    async () => {
      const { engine, sink } = setup(tempDir(), {
        Stop: [{ hooks: [{ command: hookCommand('deny.sh', 'never') }] }],
      });
      const stop = createStopController({ engine, sink, limit: 0 });
      for (let round = 0; round < 7; round++)
        expect((await stop.onModelStop('x')).continue).toBe(true);
      expect(recordsOf(sink.records, 'stop_hook_limit_reached')).toEqual([]);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'ends the loop when a hook allows after reading stop_hook_active',
    async () => {
      const root = tempDir();
      const out = path.join(root, 'stop.json');
      const { engine, sink } = setup(root, {
        Stop: [
          { hooks: [{ command: hookCommand('record.sh', out) }] },
          { hooks: [{ command: hookCommand('stop-once.sh'), name: 'once' }] },
        ],
      });
      const stop = createStopController({ engine, sink, limit: 5 });
      const first = await stop.onModelStop('first try');
      expect(first.continue).toBe(true);
      expect(StopInputSchema.parse(JSON.parse(fs.readFileSync(out, 'utf8')))).toMatchObject({
        stop_hook_active: false,
        prevented_count: 0,
        previous_reasons: [],
        last_assistant_message: 'first try',
      });
      const second = await stop.onModelStop('second try');
      expect(second.continue).toBe(false);
      expect(StopInputSchema.parse(JSON.parse(fs.readFileSync(out, 'utf8')))).toMatchObject({
        stop_hook_active: true,
        prevented_count: 1,
        previous_reasons: ['run the tests first'],
        last_assistant_message: 'second try',
      });
      expect(recordTypes(sink.records)).toEqual([
        'hook_started',
        'hook_finished',
        'hook_started',
        'hook_finished',
        'hook_denied',
        'stop_hook_prevented',
        'hook_started',
        'hook_finished',
        'hook_started',
        'hook_finished',
      ]);
    },
    PROCESS_TIMEOUT,
  );
});
