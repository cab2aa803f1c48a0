import { defineConfig } from 'vitest/config';

// Two projects: fast pure tests, and end-to-end tests that drive a real Chromium with the built dist/ (one file at a time:
// they share the machine's 2 cores and start servers on free loopback ports).
// `npm test` runs the unit project first, on every core (`--maxWorkers=100%`: vitest's default leaves one core free,
// which on a 2-core host ran every file one after another; many unit files mostly wait on the panel's timers), then the
// end-to-end project alone. Measured 2026-12-05: unit 98–101 s on 2 workers against ~173 s on one, three runs green.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
          environment: 'node',
          // Several unit tests replay thousands of frames; on this shared 2-core host a busy moment made them run
          // 3–14× slower (2026-12-03: 17 s and 71 s against 1.5 and 5 s). A hang still fails, a slow host does not.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
