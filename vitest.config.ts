import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const define = { __CLINADMIN_VERSION__: JSON.stringify(version) };

/**
 * The test tiers as projects. `npm test` runs unit (pure functions), cli (the CLI in process against the
 * real server on port 0) and e2e (the built binary): Node alone, any user. `npm run test:system` runs system
 * (what needs root, tmux, script, zsh, fish, python3 or curl; a missing tool fails, never skips) and stress
 * (the SIGKILL crash rounds, the 30 s load test, the lock races). .ci/run runs both.
 */
// Timeouts catch a hang, never measure speed (speed targets live in the bench): generous enough for a machine
// whose two cores are busy with other work, where a test of a few seconds alone takes ten times as long.
const tier = (name: string, timeouts = { testTimeout: 120_000, hookTimeout: 120_000 }) => ({
  define,
  test: { name, include: [`test/${name}/**/*.test.ts`], ...timeouts },
});

export default defineConfig({
  test: {
    // Most of a test's time is spent waiting on a process it started (the built binary, serve), so files run
    // four at a time even on two cores; vitest's default (cores - 1) ran them one at a time here.
    maxWorkers: 4,
    // Each test as it ends, not only each file: a file of slow tests (docs-examples, a minute) is not a
    // minute of silence. `--reporter=default` on the command line gives the shorter view back.
    reporters: ['verbose'],
    globalSetup: ['test/helpers/global-tmp.ts'],
    projects: [
      tier('unit'),
      tier('cli'),
      tier('e2e'),
      tier('system'),
      tier('stress', { testTimeout: 180_000, hookTimeout: 120_000 }),
    ],
  },
});
