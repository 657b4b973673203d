import { defineConfig } from 'vitest/config';

// The runner's own tests import its TypeScript sources, which Node cannot run as the spawn helper:
// a global setup compiles the package once and points the runner at the compiled helper, so every
// test goes through the helper. SOONG_AGENT_TEST_SPAWN_HELPER=off runs the same suite without it.
export default defineConfig({
  test: {
    globalSetup: ['src/test-helpers/global-setup.ts'],
    setupFiles: ['src/test-helpers/setup-spawn-helper.ts'],
  },
});
