import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AGENTS } from './agents.mjs';
import { CASES } from './cases.mjs';
import { differingFields, loadDeliberate, verdictOf } from './compare.mjs';

const AGENT_NAMES = AGENTS.map((agent) => agent.name);
const CASE_IDS = CASES.map((testCase) => testCase.id);

const observation = (overrides = {}) => ({
  ran: true,
  rewritten: false,
  toldReason: false,
  toldContext: false,
  hookCalls: 1,
  turns: 2,
  exitCode: 0,
  timedOut: false,
  durationMs: 1000,
  ...overrides,
});

function listFile(differences) {
  const file = join(mkdtempSync(join(tmpdir(), 'conformance-list-')), 'deliberate.json');
  writeFileSync(file, JSON.stringify({ differences }));
  return file;
}

describe('verdictOf', () => {
  const deliberate = [
    {
      agents: ['claude'],
      cases: ['pre-rewrite'],
      fields: ['ran', 'rewritten'],
      reason: 'by design',
    },
    {
      agents: ['*'],
      cases: ['post-context'],
      fields: ['toldContext'],
      untilDeliverContext: true,
      reason: 'context delivery off',
    },
  ];

  it('agrees when every compared observation is the same', () => {
    const outcome = verdictOf({
      agent: 'claude',
      caseId: 'pre-exit2',
      real: observation({ ran: false, toldReason: true }),
      ours: observation({ ran: false, toldReason: true, exitCode: 1, durationMs: 5 }),
      deliberate,
      deliverContext: false,
    });
    expect(outcome.verdict).toBe('agree');
  });

  it('is deliberate when a listed entry covers every differing field', () => {
    const outcome = verdictOf({
      agent: 'claude',
      caseId: 'pre-rewrite',
      real: observation({ ran: false, rewritten: true }),
      ours: observation(),
      deliberate,
      deliverContext: false,
    });
    expect(outcome).toMatchObject({ verdict: 'deliberate', fields: ['ran', 'rewritten'] });
  });

  it('is different when a field outside the entry differs, or for another agent', () => {
    const real = observation({ ran: false, rewritten: true, turns: 3 });
    expect(
      verdictOf({
        agent: 'claude',
        caseId: 'pre-rewrite',
        real,
        ours: observation(),
        deliberate,
        deliverContext: false,
      }).verdict,
    ).toBe('DIFFERENT');
    expect(
      verdictOf({
        agent: 'gemini',
        caseId: 'pre-rewrite',
        real: observation({ ran: false, rewritten: true }),
        ours: observation(),
        deliberate,
        deliverContext: false,
      }).verdict,
    ).toBe('DIFFERENT');
  });

  it('stops excusing a context difference once ours delivers context', () => {
    const input = {
      agent: 'codex',
      caseId: 'post-context',
      real: observation({ toldContext: true }),
      ours: observation(),
      deliberate,
    };
    expect(verdictOf({ ...input, deliverContext: false }).verdict).toBe('deliberate');
    expect(verdictOf({ ...input, deliverContext: true }).verdict).toBe('DIFFERENT');
  });

  it('is an error when a side timed out or did not run', () => {
    const base = { agent: 'claude', caseId: 'pre-silent', deliberate, deliverContext: false };
    expect(
      verdictOf({ ...base, real: observation({ timedOut: true }), ours: observation() }).verdict,
    ).toBe('ERROR');
    expect(verdictOf({ ...base, real: observation(), ours: undefined }).verdict).toBe('ERROR');
  });
});

describe('differingFields', () => {
  it('ignores the exit code and the duration', () => {
    expect(differingFields(observation(), observation({ exitCode: 1, durationMs: 9 }))).toEqual([]);
  });
});

describe('loadDeliberate', () => {
  it('reads the repository list: every entry names known agents, cases and fields, with a reason', () => {
    const file = fileURLToPath(new URL('../deliberate.json', import.meta.url));
    const list = loadDeliberate(file, CASE_IDS, AGENT_NAMES);
    expect(list.length).toBeGreaterThan(0);
    for (const entry of list) expect(entry.reason.length).toBeGreaterThan(20);
  });

  it('refuses an entry without a reason, with an unknown case, agent or field', () => {
    const bad = [
      [{ agents: ['claude'], cases: ['pre-exit2'] }, /differences\[0\]\.reason/],
      [{ agents: ['claude'], cases: ['pre-exit3'], reason: 'x' }, /unknown case "pre-exit3"/],
      [{ agents: ['cline'], cases: ['pre-exit2'], reason: 'x' }, /unknown agent "cline"/],
      [
        { agents: ['*'], cases: ['pre-exit2'], fields: ['exit'], reason: 'x' },
        /unknown field "exit"/,
      ],
    ];
    for (const [entry, message] of bad)
      expect(() => loadDeliberate(listFile([entry]), CASE_IDS, AGENT_NAMES)).toThrow(message);
  });
});

describe('CASES', () => {
  it('have unique ids and a hook for at least Claude Code', () => {
    expect(new Set(CASE_IDS).size).toBe(CASE_IDS.length);
    const claude = AGENTS.find((agent) => agent.name === 'claude');
    for (const testCase of CASES) expect(testCase.hook(claude)).toBeDefined();
  });
});
