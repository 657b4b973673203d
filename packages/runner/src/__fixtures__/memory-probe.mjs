// Runs one command through the runner and reports how much the peak RSS grew.
// argv: <runner entry URL> <shell command> <options JSON>
import fs from 'node:fs';

const [entryUrl, command, optionsJson] = process.argv.slice(2);
const { runCommand } = await import(entryUrl);

function peakRssBytes() {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  return Number(match?.[1]) * 1024;
}

// Warm up so module loading and JIT do not count as growth.
await runCommand({ command: ['echo', 'warm'] });
const before = peakRssBytes();
const result = await runCommand({ command, ...JSON.parse(optionsJson) });
const after = peakRssBytes();
process.stdout.write(
  JSON.stringify({
    peakGrowthBytes: after - before,
    stdoutBytes: result.stdoutBytes,
    stdoutKeptLength: result.stdout.length,
    stdoutTruncated: result.stdoutTruncated,
    exitCode: result.exitCode,
  }),
);
