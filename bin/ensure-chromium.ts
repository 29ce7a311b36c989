// Runs before `npm test` (npm's pretest): the browser tests need Chromium, the host's
// page-under-test tests need chromedriver beside it, and the Selenium Grid tests need Java 17;
// a fresh machine has none of them. As root with apt-get (the CI machine), the missing ones are
// installed; otherwise the tests cannot run, and this says what to do instead of letting them
// fail one by one.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { CHROMIUM_PATH } from "../drivers/host/chromium.ts";
import { CHROMEDRIVER_PATH } from "../drivers/host/chromedriver.ts";
import { JAVA_PATH } from "../drivers/grid/grid.ts";

function run(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  return result.status === 0;
}

const missing = [
  ...(existsSync(CHROMIUM_PATH) ? [] : [{ what: "Chromium", path: CHROMIUM_PATH, pkg: "chromium", env: "CHROMIUM_PATH" }]),
  ...(existsSync(CHROMEDRIVER_PATH) ? [] : [{ what: "chromedriver", path: CHROMEDRIVER_PATH, pkg: "chromium-driver", env: "CHROMEDRIVER_PATH" }]),
  ...(existsSync(JAVA_PATH) ? [] : [{ what: "Java", path: JAVA_PATH, pkg: "default-jre-headless", env: "JAVA_PATH" }]),
];
// Debian's chromium-driver must match its chromium: both are installed (or upgraded) together.
const packages = [
  ...(missing.some((m) => m.pkg.startsWith("chromium")) ? ["chromium", "chromium-driver"] : []),
  ...(missing.some((m) => m.what === "Java") ? ["default-jre-headless"] : []),
];

if (missing.length > 0) {
  const isRoot = process.getuid?.() === 0;
  const hasApt = existsSync("/usr/bin/apt-get");
  const custom = missing.some((m) => process.env[m.env]);
  const command = `apt-get install -y ${packages.join(" ")}`;
  const list = missing.map((m) => `${m.what} at ${m.path}`).join(" and ");
  if (!isRoot || !hasApt || custom) {
    console.error(
      `The tests need ${list}, and ${missing.length > 1 ? "they are" : "it is"} not there. Install them with "${command}" as root, ` +
        `or set ${missing.map((m) => m.env).join(" and ")} to ${missing.length > 1 ? "executables" : "an executable"} elsewhere.`,
    );
    process.exit(1);
  }
  console.log(`The tests need ${list}: installing with apt-get (about 30 s)…`);
  if (!run("apt-get", ["update", "-qq"]) || !run("apt-get", ["install", "-y", "-qq", ...packages]) || missing.some((m) => !existsSync(m.path))) {
    console.error(`Installing failed; install them by hand with "${command}" and run the tests again.`);
    process.exit(1);
  }
}
