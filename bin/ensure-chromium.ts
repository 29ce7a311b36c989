// Runs before `npm test` (npm's pretest): the browser tests need Chromium, and a fresh
// machine has none. As root with apt-get (the CI machine), it is installed; otherwise the
// tests cannot run, and this says what to do instead of letting them fail one by one.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { CHROMIUM_PATH } from "../adapters/host/chromium.ts";

function run(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  return result.status === 0;
}

if (!existsSync(CHROMIUM_PATH)) {
  const isRoot = process.getuid?.() === 0;
  const hasApt = existsSync("/usr/bin/apt-get");
  if (!isRoot || !hasApt || process.env.CHROMIUM_PATH) {
    console.error(
      `The browser tests need Chromium at ${CHROMIUM_PATH}, and it is not there. ` +
        `Install it with "apt-get install -y chromium" as root, or set CHROMIUM_PATH to a Chromium or Chrome executable.`,
    );
    process.exit(1);
  }
  console.log("The browser tests need Chromium: installing it with apt-get (about 30 s)…");
  if (!run("apt-get", ["update", "-qq"]) || !run("apt-get", ["install", "-y", "-qq", "chromium"]) || !existsSync(CHROMIUM_PATH)) {
    console.error(`Installing Chromium failed; install it by hand with "apt-get install -y chromium" and run the tests again.`);
    process.exit(1);
  }
}
