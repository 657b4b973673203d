#!/usr/bin/env node
// `pnpm conformance`: installs the four CLIs (cached), runs every case under each real agent and
// under our dialect, prints a table per agent and a summary line; exit 1 on an unlisted difference.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runCommand } from '@soong-agent/runner';
import { AGENTS } from './agents.mjs';
import { CASES } from './cases.mjs';
import { describe, inputKeyDifference, loadDeliberate, verdictOf } from './compare.mjs';
import { cacheDir, ensureInstalled } from './install.mjs';
import { runOurs, runReal, SOONG_CLI } from './run-case.mjs';

const USAGE = `usage: pnpm conformance [--agent claude,gemini,codex,copilot] [--case ID,...] [--jobs N] [--keep] [--json FILE]

  --agent   the agents to run (default: all four)
  --case    the cases to run (default: all; ids are listed in conformance/README.md)
  --jobs    runs at once (default: $SOONG_CONFORMANCE_JOBS, else 3)
  --keep    keep the work dir (each side's config, hook calls, model requests, output)
  --json    also write the full report (observations, verdicts) to FILE
  --rejudge FILE  run nothing: judge a report written by --json against deliberate.json again
CLIs are cached in $SOONG_CONFORMANCE_CACHE (default ~/.cache/soong-agent-conformance).`;

const DELIBERATE_FILE = fileURLToPath(new URL('../deliberate.json', import.meta.url));

function parseOptions() {
  const { values } = parseArgs({
    options: {
      agent: { type: 'string' },
      case: { type: 'string' },
      jobs: { type: 'string' },
      keep: { type: 'boolean', default: false },
      json: { type: 'string' },
      rejudge: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const pick = (text, known, what) => {
    if (text === undefined) return known;
    const names = text.split(',').map((name) => name.trim());
    for (const name of names)
      if (!known.includes(name)) {
        console.error(`--${what}: unknown ${what} "${name}"; known: ${known.join(', ')}`);
        process.exit(2);
      }
    return names;
  };
  const jobs = Number(values.jobs ?? process.env.SOONG_CONFORMANCE_JOBS ?? 3);
  if (!Number.isInteger(jobs) || jobs < 1) {
    console.error(`--jobs: expected a positive integer, got "${values.jobs}"`);
    process.exit(2);
  }
  return {
    agents: pick(
      values.agent,
      AGENTS.map((agent) => agent.name),
      'agent',
    ),
    cases: pick(
      values.case,
      CASES.map((testCase) => testCase.id),
      'case',
    ),
    jobs,
    keep: values.keep,
    json: values.json,
    rejudge: values.rejudge,
  };
}

/** Whether this build of soong-agent accepts `[hooks] deliver_context` (spec §13.1). */
async function supportsDeliverContext(workDir) {
  const home = join(workDir, 'probe-home');
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'config.toml'), '[hooks]\ndeliver_context = true\n');
  writeFileSync(join(home, 'hooks.json'), '{"version":1,"hooks":{}}\n');
  const result = await runCommand({
    command: ['node', SOONG_CLI, 'hooks', 'validate', '--home', home],
    cwd: workDir,
    envAllowlist: ['PATH'],
    env: { HOME: workDir },
    timeoutMs: 60_000,
  });
  return result.exitCode === 0;
}

/** Runs tasks with at most `jobs` at once. */
async function pool(tasks, jobs) {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next];
      next += 1;
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, worker));
}

/** Pads a table's columns. */
function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]))
      .join('  ')
      .trimEnd(),
  );
}

/**
 * Judges every case against the deliberate list and prints a table per agent; returns the counts,
 * the summary parts and the report.
 */
function judgeAndPrint({
  agents,
  cases,
  results,
  unavailable,
  deliberate,
  deliverContext,
  selectedCases,
}) {
  let unlisted = 0;
  let errors = 0;
  const summary = [];
  const report = { deliverContext, agents: [], notRun: {} };
  const usedEntries = new Set();
  for (const agent of agents) {
    console.log(`\n${agent.title} ${agent.version}`);
    if (unavailable.has(agent.name)) {
      console.log(`  not run: ${unavailable.get(agent.name)}`);
      summary.push(`${agent.name} not run`);
      report.notRun[agent.name] = unavailable.get(agent.name);
      errors += 1;
      continue;
    }
    const rows = [['case', 'real', 'ours', 'verdict']];
    const notes = [];
    /** @type {Map<object, string[]>} the deliberate entries used, with their cases */
    const reasons = new Map();
    /** @type {Map<string, string>} */
    const inputNotes = new Map();
    const counts = { agree: 0, deliberate: 0, DIFFERENT: 0, ERROR: 0 };
    const agentReport = { name: agent.name, version: agent.version, cases: [] };
    for (const testCase of cases) {
      const entry = results.get(`${agent.name}/${testCase.id}`);
      if (entry === undefined) continue;
      const outcome = verdictOf({
        agent: agent.name,
        caseId: testCase.id,
        real: entry.real,
        ours: entry.ours,
        deliberate,
        deliverContext,
      });
      for (const used of outcome.entries) usedEntries.add(used);
      counts[outcome.verdict] += 1;
      const verdict =
        outcome.verdict === 'agree'
          ? 'agree'
          : `${outcome.verdict} (${outcome.fields.join(', ') || entry.error || 'timeout'})`;
      rows.push([testCase.id, describe(entry.real), describe(entry.ours), verdict]);
      if (outcome.verdict === 'deliberate')
        for (const used of outcome.entries)
          reasons.set(used, [...(reasons.get(used) ?? []), testCase.id]);
      if (entry.ours?.importNote !== undefined)
        notes.push(`  ${testCase.id}: ours ${entry.ours.importNote}`);
      if (entry.error !== undefined) notes.push(`  ${testCase.id}: ${entry.error}`);
      const inputNote = inputKeyDifference(entry.real, entry.ours);
      if (inputNote !== undefined && !inputNotes.has(testCase.event))
        inputNotes.set(testCase.event, inputNote);
      agentReport.cases.push({ id: testCase.id, ...entry, ...outcome, entries: undefined });
    }
    for (const line of table(rows)) console.log(`  ${line}`);
    if (reasons.size > 0) {
      console.log('  deliberate:');
      for (const [used, ids] of reasons) console.log(`    ${ids.join(', ')}: ${used.reason}`);
    }
    if (notes.length > 0) {
      console.log('  notes:');
      for (const note of notes) console.log(`  ${note}`);
    }
    if (inputNotes.size > 0) {
      console.log(`  hook stdin keys, ${agent.title} vs ours (shown, not compared):`);
      for (const [event, note] of inputNotes) console.log(`    ${event}: ${note}`);
    }
    unlisted += counts.DIFFERENT;
    errors += counts.ERROR;
    const comparable = counts.agree + counts.deliberate + counts.DIFFERENT;
    summary.push(
      `${agent.name} ${counts.agree}/${comparable} agree, ${counts.deliberate} deliberate, ${counts.DIFFERENT} unlisted` +
        (counts.ERROR > 0 ? `, ${counts.ERROR} error` : ''),
    );
    report.agents.push({ ...agentReport, counts });
  }
  const stale = deliberate.filter(
    (entry) =>
      !usedEntries.has(entry) &&
      (entry.agents.includes('*') ||
        entry.agents.some((name) =>
          agents.some((agent) => agent.name === name && !unavailable.has(name)),
        )) &&
      entry.cases.some((id) => selectedCases.includes(id)) &&
      !(entry.untilDeliverContext === true && deliverContext),
  );
  if (stale.length > 0) {
    console.log(
      '\nlisted as deliberate but no longer different (remove from deliberate.json once confirmed):',
    );
    for (const entry of stale)
      console.log(`  ${entry.agents.join(',')} ${entry.cases.join(',')}: ${entry.reason}`);
  }
  return { unlisted, errors, summary, report };
}

/** The closing line: agreement per agent and the unlisted differences. */
function summaryLine({ summary, unlisted, errors }) {
  return (
    `\nconformance: ${summary.join('; ')} — ${unlisted} unlisted difference${unlisted === 1 ? '' : 's'}` +
    `${errors > 0 ? `, ${errors} error${errors === 1 ? '' : 's'}` : ''}`
  );
}

/** `--rejudge FILE`: the verdicts of a saved report against today's deliberate.json. */
function rejudge(file, options, deliberate) {
  const saved = JSON.parse(readFileSync(file, 'utf8'));
  const names = [...saved.agents.map((agent) => agent.name), ...Object.keys(saved.notRun ?? {})];
  const agents = AGENTS.filter(
    (agent) => names.includes(agent.name) && options.agents.includes(agent.name),
  );
  const results = new Map();
  for (const agent of saved.agents)
    for (const testCase of agent.cases)
      results.set(`${agent.name}/${testCase.id}`, {
        real: testCase.real,
        ours: testCase.ours,
        ...(testCase.error === undefined ? {} : { error: testCase.error }),
      });
  const judged = judgeAndPrint({
    agents,
    cases: CASES.filter((testCase) => options.cases.includes(testCase.id)),
    results,
    unavailable: new Map(Object.entries(saved.notRun ?? {})),
    deliberate,
    deliverContext: saved.deliverContext,
    selectedCases: options.cases,
  });
  console.log(`${summaryLine(judged)} (judged again from ${file})`);
  process.exitCode = judged.unlisted > 0 || judged.errors > 0 ? 1 : 0;
}

async function main() {
  const options = parseOptions();
  if (options.rejudge !== undefined) {
    rejudge(
      options.rejudge,
      options,
      loadDeliberate(
        DELIBERATE_FILE,
        CASES.map((testCase) => testCase.id),
        AGENTS.map((agent) => agent.name),
      ),
    );
    return;
  }
  if (!existsSync(SOONG_CLI)) {
    console.error(`${SOONG_CLI} is missing: build first (npx pnpm@12.4.2 turbo run build)`);
    process.exit(2);
  }
  const workDir = mkdtempSync(join(tmpdir(), 'soong-conformance-'));
  const started = performance.now();
  const agents = AGENTS.filter((agent) => options.agents.includes(agent.name));
  const cases = CASES.filter((testCase) => options.cases.includes(testCase.id));
  const deliberate = loadDeliberate(
    DELIBERATE_FILE,
    CASES.map((testCase) => testCase.id),
    AGENTS.map((agent) => agent.name),
  );
  const deliverContext = await supportsDeliverContext(workDir);
  console.log(
    `conformance: ${agents.length} agents × ${cases.length} cases; CLIs cached in ${cacheDir()}; ` +
      `ours ${deliverContext ? 'with' : 'without'} [hooks] deliver_context (this build ${deliverContext ? 'has' : 'lacks'} it)`,
  );

  const installs = await Promise.all(agents.map((agent) => ensureInstalled(agent)));
  /** @type {Map<string, string>} */
  const bins = new Map();
  /** @type {Map<string, string>} */
  const unavailable = new Map();
  agents.forEach((agent, index) => {
    const install = installs[index];
    if ('error' in install) unavailable.set(agent.name, install.error);
    else bins.set(agent.name, install.bin);
    const state =
      'error' in install
        ? `NOT INSTALLED: ${install.error}`
        : install.installedNow
          ? 'installed now'
          : 'cached';
    console.log(`  ${agent.title} ${agent.version}: ${state}`);
  });
  const installedMs = performance.now() - started;

  /** @type {Map<string, { real?: object, ours?: object, error?: string }>} */
  const results = new Map();
  const tasks = [];
  for (const agent of agents) {
    if (!bins.has(agent.name)) continue;
    for (const testCase of cases) {
      const spec = testCase.hook(agent);
      if (spec === undefined) continue;
      const key = `${agent.name}/${testCase.id}`;
      const tokens = {
        reason: `CONF-${agent.name}-${testCase.id}-REASON`,
        context: `CONF-${agent.name}-${testCase.id}-CONTEXT`,
        alt: '',
      };
      const entry = {};
      results.set(key, entry);
      const sideDir = (side) => join(workDir, agent.name, testCase.id, side);
      const guarded = (side, run) => async () => {
        const dir = sideDir(side);
        const sideTokens = { ...tokens, alt: join(dir, 'project', 'alt-marker') };
        try {
          entry[side] = await run(dir, sideTokens);
        } catch (error) {
          entry.error = `${side}: ${error instanceof Error ? error.message : String(error)}`;
        }
      };
      tasks.push(
        guarded('real', (dir, sideTokens) =>
          runReal(agent, bins.get(agent.name), testCase, spec, dir, sideTokens),
        ),
        guarded('ours', (dir, sideTokens) =>
          runOurs(agent, testCase, spec, dir, sideTokens, { deliverContext }),
        ),
      );
    }
  }
  await pool(tasks, options.jobs);

  const judged = judgeAndPrint({
    agents,
    cases,
    results,
    unavailable,
    deliberate,
    deliverContext,
    selectedCases: options.cases,
  });
  const seconds = Math.round((performance.now() - started) / 1000);
  console.log(
    `${summaryLine(judged)} in ${seconds}s (setup and install ${Math.round(installedMs / 1000)}s)`,
  );
  if (options.json !== undefined)
    writeFileSync(options.json, `${JSON.stringify(judged.report, null, 2)}\n`);
  if (options.keep) console.log(`work dir kept: ${workDir}`);
  else rmSync(workDir, { recursive: true, force: true });
  process.exitCode = judged.unlisted > 0 || judged.errors > 0 ? 1 : 0;
}

await main();
