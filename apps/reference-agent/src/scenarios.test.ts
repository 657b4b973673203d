import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EventRecord } from '@soong-agent/protocol';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, parseRecords, runCli } from './test-helpers/cli.js';

const SCENARIOS = fileURLToPath(new URL('./__fixtures__/scenarios/', import.meta.url));

/** expected.json of a scenario folder. */
interface Expected {
  description: string;
  prompt?: string;
  args: string[];
  exit_code: number;
  /** The exact sequence of record types. */
  types?: string[];
  /** Partial records that must appear in this order (other records may come between). */
  records?: Record<string, unknown>[];
  absent_types?: string[];
  absent_records?: Record<string, unknown>[];
  stderr_contains?: string[];
  project_files?: Record<string, string>;
  project_files_absent?: string[];
  home_files?: Record<string, string>;
  artifact_on_call?: string;
}

function isSubset(expected: unknown, actual: unknown): boolean {
  if (typeof expected !== 'object' || expected === null) return Object.is(expected, actual);
  if (typeof actual !== 'object' || actual === null) return false;
  return Object.entries(expected).every(([key, value]) =>
    isSubset(value, (actual as Record<string, unknown>)[key]),
  );
}

function expectInOrder(records: EventRecord[], wanted: Record<string, unknown>[]): void {
  let from = 0;
  for (const partial of wanted) {
    const index = records.findIndex(
      (record, position) => position >= from && isSubset(partial, record),
    );
    expect(
      index,
      `record ${JSON.stringify(partial)} (in order) among\n${records.map((r) => JSON.stringify(r)).join('\n')}`,
    ).not.toBe(-1);
    from = index + 1;
  }
}

const names = fs.readdirSync(SCENARIOS).sort();

describe('soong-agent run (scenario folders)', () => {
  it('has a scenario folder for every expected.json it maps', () => {
    for (const name of names) {
      // home/ and project/ may be absent: git keeps no empty folders, and absent means empty.
      for (const part of ['script.json', 'expected.json']) {
        expect(fs.existsSync(path.join(SCENARIOS, name, part)), `${name}/${part}`).toBe(true);
      }
    }
    expect(names.length).toBeGreaterThanOrEqual(12);
  });

  it.each(names)(
    'produces the expected records and exit code when running scenario %s',
    async (name) => {
      const dir = path.join(SCENARIOS, name);
      const expected = JSON.parse(
        fs.readFileSync(path.join(dir, 'expected.json'), 'utf8'),
      ) as Expected;
      const workspace = makeWorkspace();
      for (const [part, target] of [
        ['home', workspace.home],
        ['project', workspace.project],
      ] as const) {
        fs.mkdirSync(target, { recursive: true });
        if (fs.existsSync(path.join(dir, part))) {
          fs.cpSync(path.join(dir, part), target, { recursive: true });
        }
      }
      const script = path.join(workspace.root, 'script.json');
      fs.copyFileSync(path.join(dir, 'script.json'), script);
      const result = await runCli(
        [
          'run',
          expected.prompt ?? 'go',
          '--home',
          workspace.home,
          '--project',
          workspace.project,
          '--model',
          `scripted:${script}`,
          '--json',
          ...expected.args,
        ],
        { env: workspace.env, cwd: workspace.root },
      );
      const records = parseRecords(result.stdout);
      expect(result.code, result.stderr).toBe(expected.exit_code);
      expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
      if (expected.types !== undefined)
        expect(records.map((record) => record.type)).toEqual(expected.types);
      expectInOrder(records, expected.records ?? []);
      for (const type of expected.absent_types ?? [])
        expect(records.map((record) => record.type)).not.toContain(type);
      for (const partial of expected.absent_records ?? [])
        expect(records.some((record) => isSubset(partial, record))).toBe(false);
      for (const text of expected.stderr_contains ?? []) expect(result.stderr).toContain(text);
      for (const [file, content] of Object.entries(expected.project_files ?? {})) {
        expect(fs.readFileSync(path.join(workspace.project, file), 'utf8')).toBe(content);
      }
      for (const file of expected.project_files_absent ?? [])
        expect(fs.existsSync(path.join(workspace.project, file))).toBe(false);
      for (const [file, content] of Object.entries(expected.home_files ?? {})) {
        expect(fs.readFileSync(path.join(workspace.home, file), 'utf8')).toBe(content);
      }
      if (expected.artifact_on_call !== undefined) {
        const finished = records.find(
          (record) =>
            record.type === 'tool_finished' && record.call_id === expected.artifact_on_call,
        );
        const ref = finished?.type === 'tool_finished' ? finished.artifact_ref : undefined;
        expect(ref).toBeDefined();
        expect(fs.statSync(ref?.path ?? '').size).toBe(ref?.bytes);
      }
      // The log on disk holds the same records as --json printed.
      const sessions = fs.readdirSync(path.join(workspace.home, 'sessions'));
      expect(sessions).toHaveLength(1);
      const onDisk = fs.readFileSync(
        path.join(workspace.home, 'sessions', sessions[0] as string, 'events.jsonl'),
        'utf8',
      );
      expect(parseRecords(onDisk)).toEqual(records);
    },
    60_000,
  );
});
