import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const SESSION_ID_PATTERN = /^\d{8}T\d{6}Z-[0-9a-f]{6}$/;

/**
 * A session id that sorts by start time: `YYYYMMDDTHHMMSSZ-<6 hex>` in UTC,
 * e.g. `20261202T135512Z-3f9a1c`.
 */
export function createSessionId(now: Date = new Date()): string {
  const stampText = now
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
  return `${stampText}-${crypto.randomBytes(3).toString('hex')}`;
}

/** True when `value` has the shape of a session id (see {@link createSessionId}). */
export function isSessionId(value: string): boolean {
  return SESSION_ID_PATTERN.test(value);
}

/** The files of one session under the agent home. */
export interface SessionPaths {
  /** `<home>/sessions/<id>` */
  dir: string;
  /** `<home>/sessions/<id>/events.jsonl` */
  eventLog: string;
  /** `<home>/sessions/<id>/artifacts` */
  artifacts: string;
  /** `<home>/sessions/<id>/transcript.jsonl`: Claude Code's line format, for its hooks (spec §7) */
  transcript: string;
}

/** Where a session keeps its event log and artifacts (spec §5). */
export function sessionPaths(home: string, sessionId: string): SessionPaths {
  return sessionFilesIn(path.join(home, 'sessions', sessionId));
}

/** The files of a session kept in `dir` (see {@link sessionPaths}). */
export function sessionFilesIn(dir: string): SessionPaths {
  return {
    dir,
    eventLog: path.join(dir, 'events.jsonl'),
    artifacts: path.join(dir, 'artifacts'),
    transcript: path.join(dir, 'transcript.jsonl'),
  };
}

/** Session ids under `<home>/sessions`, sorted ascending: the latest session is the last one. */
export function listSessions(home: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(home, 'sessions'), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isDirectory() && SESSION_ID_PATTERN.test(entry.name))
    .map((entry) => entry.name)
    .sort();
}
