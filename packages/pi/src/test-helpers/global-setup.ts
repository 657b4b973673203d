import fs from 'node:fs';
import path from 'node:path';
import { ensurePi } from './pi-install.js';
import { PACKAGE_DIR, SOONG_AGENT_CLI } from './pi-workspace.js';

/** vitest global setup: pi in its cache, and the builds the tests load. */
export default function setup(): void {
  for (const file of [path.join(PACKAGE_DIR, 'dist', 'index.js'), SOONG_AGENT_CLI]) {
    if (!fs.existsSync(file)) {
      throw new Error(`${file} is missing: build first (npx pnpm@12.4.2 turbo run build)`);
    }
  }
  ensurePi();
}
