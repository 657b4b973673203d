import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LoadedConfig, loadConfig } from '@soong-agent/config';
import type { BuiltInDialectName } from '@soong-agent/dialects';
import { type EventRecord, EventRecordSchema } from '@soong-agent/protocol';
import { expect } from 'vitest';
import { createFileArtifactStore } from '../artifact-store.js';
import { createMemoryEventSink } from '../event-sink.js';
import { createHookEngine, type HookEngine } from '../hook-engine.js';

/** The fixture worker hooks folder (spec §8). */
export const WORKERS_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '__fixtures__',
  'workers',
);

/** The fixture hook scripts folder. */
export const HOOKS_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '__fixtures__',
  'hooks',
);

// git may not keep modes: make every fixture hook executable once.
for (const name of fs.readdirSync(HOOKS_DIR)) fs.chmodSync(path.join(HOOKS_DIR, name), 0o755);

/** A shell command running fixture hook `name` with single-quoted arguments. */
export function hookCommand(name: string, ...args: string[]): string {
  return [path.join(HOOKS_DIR, name), ...args].map(shellQuote).join(' ');
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** A hook as written in hooks.json. */
export interface HookSpec {
  command: string;
  name?: string;
  timeout?: number;
  working_dir?: string;
  on_failure?: 'ignore' | 'deny';
  protocol?: BuiltInDialectName;
  mode?: 'spawn' | 'worker';
}

/** A rule as written in hooks.json. */
export interface RuleSpecJson {
  matcher?: unknown;
  hooks: HookSpec[];
}

/** Everything a test needs: a temp home and project, the loaded config, a memory sink and an engine. */
export interface Setup {
  home: string;
  projectDir: string;
  config: LoadedConfig;
  sink: ReturnType<typeof createMemoryEventSink>;
  engine: HookEngine;
}

/** Writes hooks.json and config.toml into `root/home` and creates `root/project`. */
export function writeHome(
  root: string,
  hooks: Partial<Record<string, RuleSpecJson[]>>,
  configToml = '',
): { home: string; projectDir: string } {
  const home = path.join(root, 'home');
  const projectDir = path.join(root, 'project');
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  fs.mkdirSync(projectDir, { recursive: true });
  const withTypes = Object.fromEntries(
    Object.entries(hooks).map(([event, rules]) => [
      event,
      (rules ?? []).map((rule) => ({
        ...rule,
        hooks: rule.hooks.map((hook) => ({ type: 'command', ...hook })),
      })),
    ]),
  );
  fs.writeFileSync(
    path.join(home, 'hooks.json'),
    JSON.stringify({ version: 1, hooks: withTypes }),
    {
      mode: 0o600,
    },
  );
  fs.writeFileSync(path.join(home, 'config.toml'), configToml, { mode: 0o600 });
  return { home, projectDir };
}

/**
 * Writes hooks.json and config.toml into `root/home`, creates `root/project`, loads the config and
 * builds an engine with a memory sink and a file artifact store.
 */
export function setup(
  root: string,
  hooks: Partial<Record<string, RuleSpecJson[]>>,
  configToml = '',
  options: { runner?: Parameters<typeof createHookEngine>[0]['runner'] } = {},
): Setup {
  const { home, projectDir } = writeHome(root, hooks, configToml);
  const config = loadConfig({ home, projectDir, homeDir: root });
  const sink = createMemoryEventSink({ sessionId: '20261202T135512Z-3f9a1c' });
  const engine = createHookEngine({
    config,
    sink,
    sessionId: '20261202T135512Z-3f9a1c',
    artifacts: createFileArtifactStore(path.join(home, 'sessions', 'artifacts')),
    runner: options.runner,
  });
  return { home, projectDir, config, sink, engine };
}

/** Asserts every record is valid and `seq` runs 1..n without gaps; returns `[type, ...]`. */
export function recordTypes(records: readonly EventRecord[]): string[] {
  records.forEach((record, index) => {
    expect(EventRecordSchema.safeParse(record).success, JSON.stringify(record)).toBe(true);
    expect(record.seq).toBe(index + 1);
  });
  return records.map((record) => record.type);
}

/** The records of one type. */
export function recordsOf<T extends EventRecord['type']>(
  records: readonly EventRecord[],
  type: T,
): Extract<EventRecord, { type: T }>[] {
  return records.filter(
    (record): record is Extract<EventRecord, { type: T }> => record.type === type,
  );
}
