// Sums every workspace's vitest JSON report into one plain closing line: "N passed, N failed".
// Exits non-zero when a report is missing, a test failed, or no test ran at all.
//   node scripts/test-summary.mjs [LABEL]   prefixes the line with "LABEL:" (e.g. node22);
//   SOONG_TEST_TALLY=FILE also appends "passed failed skipped" to FILE, for a total over passes.
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
// Every package and app, the private tools (test-utils) and the private conformance package (its
// own tests, not the real agents).
const workspaces = ['packages', 'apps', 'tools']
  .filter((group) => existsSync(join(root, group)))
  .flatMap((group) => readdirSync(join(root, group)).map((name) => `${group}/${name}`))
  .concat('conformance');
for (const workspace of workspaces) {
  const dir = join(root, workspace);
  if (!existsSync(join(dir, 'package.json'))) continue;
  const report = join(dir, 'test-report.json');
  if (!existsSync(report)) {
    missing.push(workspace);
    continue;
  }
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed += json.numPassedTests;
  failed += json.numFailedTests;
  skipped += json.numPendingTests + (json.numTodoTests ?? 0);
}
for (const name of missing) console.error(`no test report for ${name} (did its tests run?)`);
const label = process.argv[2] === undefined ? '' : `${process.argv[2]}: `;
console.log(
  `${label}${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`,
);
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by this script after turbo, not by a task
const tally = process.env.SOONG_TEST_TALLY;
if (tally) {
  appendFileSync(tally, `${passed} ${failed} ${skipped}\n`);
}
process.exitCode = failed > 0 || passed === 0 || missing.length > 0 ? 1 : 0;
