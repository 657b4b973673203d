// The first direct spawn of a process waits for execa to load: a run stopped (killAllRuns) or
// aborted in that window must still end as stopped. argv: <runner entry URL> <pid file>
// Prints one JSON line: killAllRuns' count, both results, and the group ids the runs wrote (if any).
import fs from 'node:fs';

const [entryUrl, pidFile] = process.argv.slice(2);
const { killAllRuns, runCommand, setSpawnHelper } = await import(entryUrl);

setSpawnHelper(false);
const command = `echo $$ >> "$F"; sleep 600 & wait`;
const killed = runCommand({ command, env: { F: pidFile }, timeoutMs: 0 });
const stopped = killAllRuns();
const controller = new AbortController();
const aborted = runCommand({
  command,
  env: { F: pidFile },
  timeoutMs: 0,
  signal: controller.signal,
});
controller.abort();
const results = await Promise.all([killed, aborted]);
const groups = fs.existsSync(pidFile)
  ? fs.readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number)
  : [];
process.stdout.write(
  `${JSON.stringify({ stopped, results: results.map(({ aborted, signal }) => ({ aborted, signal })), groups })}\n`,
);
