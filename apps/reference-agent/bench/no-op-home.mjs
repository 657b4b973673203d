// Shared by the benchmarks: an agent home with one no-op PreToolUse command hook, and a project
// dir beside it (not inside), in a temp dir removed when the process exits.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const NO_OP_HOOK = `cat >/dev/null; echo '{"decision":"allow"}'`;

/** Creates the temp dir; returns its root, home and project. */
export function makeNoOpHookHome(prefix) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  process.on('exit', () => fs.rmSync(root, { recursive: true, force: true }));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  fs.mkdirSync(home, { mode: 0o700 });
  fs.mkdirSync(project);
  fs.writeFileSync(
    path.join(home, 'hooks.json'),
    JSON.stringify({
      version: 1,
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: NO_OP_HOOK }] }] },
    }),
    { mode: 0o600 },
  );
  return { root, home, project };
}
