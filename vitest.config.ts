import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Fixture repositories are projects of their own whose tests fail on purpose (the gaming corpus): never ours.
    exclude: ["**/node_modules/**", "test/fixtures/**"],
    // Docker-backed tests share one engine on a small machine: keep files from piling onto it at once.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ["test/global-setup.ts"],
  },
});
