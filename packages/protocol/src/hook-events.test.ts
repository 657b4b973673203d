import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BLOCKING_EVENTS, isBlockingEvent, TOOL_EVENTS } from './event-kinds.js';
import * as events from './hook-events.js';
import {
  HookEventSchema,
  HOOK_EVENTS as INDEX_HOOK_EVENTS,
  TOOL_EVENTS as INDEX_TOOL_EVENTS,
  isBlockingEvent as indexIsBlockingEvent,
} from './index.js';
import { BLOCKING_EVENTS as INTERNAL_BLOCKING_EVENTS } from './internal.js';

const { HOOK_EVENTS } = events;

describe('@soong-agent/protocol/events', () => {
  it('is the one list of events that the index and HookEventSchema use', () => {
    expect(INDEX_HOOK_EVENTS).toBe(HOOK_EVENTS);
    expect(HookEventSchema.options).toEqual([...HOOK_EVENTS]);
  });

  it('has the blocking and tool events apart (event-kinds.ts, no zod either), the same objects wherever they are imported from', () => {
    expect(BLOCKING_EVENTS).toEqual(['PreToolUse', 'Stop']);
    expect(TOOL_EVENTS).toEqual(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);
    expect(Object.isFrozen(BLOCKING_EVENTS) && Object.isFrozen(TOOL_EVENTS)).toBe(true);
    for (const event of HOOK_EVENTS)
      expect(isBlockingEvent(event)).toBe(BLOCKING_EVENTS.includes(event));
    expect(isBlockingEvent('preToolUse')).toBe(false);
    expect(INTERNAL_BLOCKING_EVENTS).toBe(BLOCKING_EVENTS);
    expect(INDEX_TOOL_EVENTS).toBe(TOOL_EVENTS);
    expect(indexIsBlockingEvent).toBe(isBlockingEvent);
  });

  it('exports the event lists alone (the blocking and tool events live in event-kinds.ts)', () => {
    expect(Object.keys(events).sort()).toEqual(['HOOK_EVENTS', 'HOST_EVENTS']);
    const kinds = fs.readFileSync(new URL('./event-kinds.ts', import.meta.url), 'utf8');
    expect(kinds).not.toMatch(/^\s*import\s+(?!type\s)/m);
  });

  it('imports nothing, so a CLI can list the events in --help without loading zod', () => {
    const source = fs.readFileSync(new URL('./hook-events.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^\s*import\s/m);
  });

  it('is the ./events subpath of the package', () => {
    const manifest = JSON.parse(
      fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
    ) as { exports: Record<string, { types: string; default: string }> };
    expect(manifest.exports['./events']).toEqual({
      types: './dist/hook-events.d.ts',
      default: './dist/hook-events.js',
    });
  });
});
