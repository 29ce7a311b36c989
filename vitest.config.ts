import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    // A poll waits for something the browser or a run does; on a loaded CI machine that can take
    // more than the default second. A poll that names its own timeout keeps it.
    expect: { poll: { timeout: 15_000 } },
  },
});
