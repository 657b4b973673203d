import { defineConfig } from 'vitest/config';

// The real-OpenCode tests need OpenCode (installed into a cache outside the repo on first use) and
// this package built as OpenCode loads it: a global setup does both once per run.
export default defineConfig({
  test: {
    globalSetup: ['src/test-helpers/global-setup.ts'],
  },
});
