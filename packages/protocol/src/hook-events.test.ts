import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HOOK_EVENTS } from './hook-events.js';
import { HookEventSchema, HOOK_EVENTS as INDEX_HOOK_EVENTS } from './index.js';

describe('@soong-agent/protocol/events', () => {
  it('is the one list of events that the index and HookEventSchema use', () => {
    expect(INDEX_HOOK_EVENTS).toBe(HOOK_EVENTS);
    expect(HookEventSchema.options).toEqual([...HOOK_EVENTS]);
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
