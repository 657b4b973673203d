// Run under `ulimit -f 16` (8 KiB): loads the runner, runs one command (so the runner's exit
// hooks are installed), then writes 64 KiB to a file. Node ignores SIGXFSZ, so the write fails
// with EFBIG and this process goes on: it prints the error code and exits 0.
import fs from 'node:fs';
import path from 'node:path';

const [entryUrl, dir] = process.argv.slice(2);
const { runCommand } = await import(entryUrl);
const result = await runCommand({ command: ['true'], cwd: dir, timeoutMs: 30_000 });
let outcome = 'wrote';
try {
  fs.writeFileSync(path.join(dir, 'big'), Buffer.alloc(64 * 1024));
} catch (error) {
  outcome = error.code;
}
// The kernel's SIGXFSZ reaches JavaScript listeners on a later turn of the event loop: stay alive
// long enough for a listener that would re-raise it (a bounded wait for something that must not
// happen).
await new Promise((resolve) => setTimeout(resolve, 500));
console.log(`${outcome} (exit ${result.exitCode})`);
