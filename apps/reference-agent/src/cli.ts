#!/usr/bin/env node
// Entry point of `soong-agent`. Only commander is loaded up front: every command module is a
// dynamic import inside its action, and `--version` is answered before commander is loaded, so
// `--version` and `--help` stay close to a bare `node` start.
import { readFileSync } from 'node:fs';
import { hideProcessEnvironment } from '@soong-agent/runner/process-environment';

// Before anything can spawn: a hook or tool must not find the agent's secrets at
// /proc/$PPID/environ (the allowlist only governs the child's own environment).
hideProcessEnvironment();

function packageVersion(): string {
  const manifest = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  return manifest.version;
}

// `soong-agent run … --json | head` closes stdout early; the run still finishes and logs everything.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${packageVersion()}\n`);
} else {
  const { main } = await import('./program.js');
  process.exitCode = await main(process.argv, packageVersion());
}
