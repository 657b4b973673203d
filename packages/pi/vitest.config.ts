import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Installs the real pi from the npm registry into a cache outside the repository, once.
    globalSetup: ['./src/test-helpers/global-setup.ts'],
    // Upper bounds only, for a pi that hangs: each real pi run takes a few seconds.
    testTimeout: 180_000,
    hookTimeout: 600_000,
  },
});
