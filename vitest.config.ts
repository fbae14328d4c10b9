import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const define = { __CLINADMIN_VERSION__: JSON.stringify(version) };

/**
 * The test tiers as projects: `npm test` runs them all (as .ci/run does); `npx vitest --project unit` runs
 * one. unit: pure functions; cli: the CLI in process against the real server on port 0; e2e: the built
 * binary; stress: the SIGKILL crash rounds, the 30 s load test and the lock races.
 */
const tier = (name: string, timeouts = { testTimeout: 30_000, hookTimeout: 60_000 }) => ({
  define,
  test: { name, include: [`test/${name}/**/*.test.ts`], ...timeouts },
});

export default defineConfig({
  test: {
    projects: [tier('unit'), tier('cli'), tier('e2e'), tier('stress', { testTimeout: 120_000, hookTimeout: 60_000 })],
  },
});
