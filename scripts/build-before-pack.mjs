// `prepack` of every package: builds the package and the workspace packages it depends on (turbo,
// cached) before `pnpm pack` / `pnpm publish` / `changeset publish` packs it, so a tarball never
// lacks dist/ — whatever was built before (`npm run demo` builds only the CLI and what it uses).
// Turbo's output goes to stderr: the packer's stdout stays its own.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { name } = JSON.parse(readFileSync('package.json', 'utf8'));
execFileSync(
  join(root, 'node_modules', '.bin', 'turbo'),
  ['run', 'build', `--filter=${name}...`, '--output-logs=errors-only'],
  { cwd: root, stdio: ['ignore', 2, 2] },
);
