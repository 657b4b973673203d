import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '@soong-agent/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSessionId, isSessionId, listSessions, sessionPaths } from './session.js';

const tempDir = () => makeTempDir();

describe('createSessionId', () => {
  it('formats the UTC start time and 6 hex digits when given a date', () => {
    const id = createSessionId(new Date('2026-12-02T13:55:12.345Z'));
    expect(id).toMatch(/^20261202T135512Z-[0-9a-f]{6}$/);
    expect(isSessionId(id)).toBe(true);
  });

  it('sorts ids by start time when the times differ by at least a second', () => {
    const min = new Date('2000-01-01T00:00:00Z').getTime();
    const max = new Date('2999-12-31T23:59:59Z').getTime();
    fc.assert(
      fc.property(
        fc.integer({ min, max: max - 10 ** 10 }),
        fc.integer({ min: 1000, max: 10 ** 10 }),
        (start, gap) => {
          const earlier = createSessionId(new Date(start));
          const later = createSessionId(new Date(start + gap));
          expect(earlier < later).toBe(true);
        },
      ),
    );
  });
});

describe('listSessions', () => {
  it('lists session folders ascending and ignores other entries when the home has sessions', () => {
    const home = tempDir();
    const ids = ['20261202T135512Z-3f9a1c', '20251202T135512Z-000000', '20261202T135513Z-000001'];
    for (const id of ids) fs.mkdirSync(sessionPaths(home, id).dir, { recursive: true });
    fs.mkdirSync(path.join(home, 'sessions', 'notes'));
    fs.writeFileSync(path.join(home, 'sessions', '20261202T135599Z-ffffff'), 'a file');
    expect(listSessions(home)).toEqual([
      '20251202T135512Z-000000',
      '20261202T135512Z-3f9a1c',
      '20261202T135513Z-000001',
    ]);
  });

  it('returns an empty list when the home has no sessions folder', () => {
    expect(listSessions(tempDir())).toEqual([]);
  });
});

describe('sessionPaths', () => {
  it('places the log, artifacts and transcript in the session folder when given a home', () => {
    expect(sessionPaths('/h', '20261202T135512Z-3f9a1c')).toEqual({
      dir: '/h/sessions/20261202T135512Z-3f9a1c',
      eventLog: '/h/sessions/20261202T135512Z-3f9a1c/events.jsonl',
      artifacts: '/h/sessions/20261202T135512Z-3f9a1c/artifacts',
      transcript: '/h/sessions/20261202T135512Z-3f9a1c/transcript.jsonl',
    });
  });
});
