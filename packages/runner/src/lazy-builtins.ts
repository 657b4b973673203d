import type * as ChildProcessModule from 'node:child_process';
import { createRequire } from 'node:module';

// Node's child_process brings net, dgram and their internals with it: loaded on the first spawn,
// not with the runner, so a host that loads the runner and runs nothing (a CLI's `hooks validate`,
// `--help`) does not pay for it. createRequire, not process.getBuiltinModule: Bun (OpenCode's
// runtime) runs the runner too.
const requireBuiltin = createRequire(import.meta.url);
let childProcess: typeof ChildProcessModule | undefined;

/** `node:child_process`, loaded on first use. @internal */
export function childProcessModule(): typeof ChildProcessModule {
  childProcess ??= requireBuiltin('node:child_process') as typeof ChildProcessModule;
  return childProcess;
}
