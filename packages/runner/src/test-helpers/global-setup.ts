import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildForFixtures } from './build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    spawnHelperEntry: string;
    runnerEntryUrl: string;
  }
}

/** Compiles the package once for the whole run; the setup file points the runner at its helper. */
export default function setup(project: TestProject): () => void {
  const build = buildForFixtures();
  project.provide('runnerEntryUrl', build.entryUrl);
  project.provide(
    'spawnHelperEntry',
    fileURLToPath(new URL('./spawn-helper-main.js', build.entryUrl)),
  );
  return build.cleanup;
}
