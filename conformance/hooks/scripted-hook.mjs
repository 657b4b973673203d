#!/usr/bin/env node
// The hook every case runs, under the real agent and under ours: `node scripted-hook.mjs SPEC`.
// SPEC (JSON) says what to print and how to exit; every call appends its stdin to SPEC's `log`,
// so a case sees whether (and with what input) the hook ran.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
  const input = Buffer.concat(chunks).toString('utf8');
  appendFileSync(spec.log, `${JSON.stringify({ input })}\n`);
  // `once`: only the first call acts (a Stop hook that blocks once, then lets the loop end).
  if (spec.once === true) {
    if (existsSync(`${spec.log}.acted`)) process.exit(0);
    writeFileSync(`${spec.log}.acted`, '');
  }
  const act = () => {
    if (spec.stderr !== undefined) process.stderr.write(spec.stderr);
    if (spec.stdout !== undefined) process.stdout.write(spec.stdout);
    process.exitCode = spec.exit ?? 0;
  };
  if (spec.sleepMs === undefined) act();
  else setTimeout(act, spec.sleepMs);
});
