import { defineConfig } from 'vitest/config';
import { pageAssets } from './scripts/page-assets.js';

export default defineConfig({
  // The tests run the server's sources: its hosted pages import their client as text.
  plugins: [pageAssets()],
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
