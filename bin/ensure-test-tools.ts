// Runs before `npm test` (npm's pretest): the browser tests need Chromium, the host's
// page-under-test tests need chromedriver beside it, the Selenium Grid tests need Java 17, and
// the test that runs an exported Python file needs Debian's pytest and python3-selenium; a fresh
// machine has none of them. As root with apt-get (the CI machine), the missing ones are
// installed; otherwise the tests cannot run, and this says what to do instead of letting them
// fail one by one.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { CHROMIUM_PATH } from "../drivers/host/chromium.ts";
import { CHROMEDRIVER_PATH } from "../drivers/host/chromedriver.ts";
import { JAVA_PATH } from "../drivers/grid/grid.ts";

/** The Python that runs exported pytest files (tests/browser/export-runs.browser.test.ts). */
const PYTHON = process.env.DEBIAN_PYTHON ?? "/usr/bin/python3";

function run(command: string, args: string[], stdio: "inherit" | "ignore" = "inherit"): boolean {
  const result = spawnSync(command, args, { stdio, env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  return result.status === 0;
}

interface Tool {
  what: string;
  path: string;
  packages: string[];
  env: string;
  present(): boolean;
}

const tools: Tool[] = [
  // Debian's chromium-driver must match its chromium: both are installed (or upgraded) together.
  { what: "Chromium", path: CHROMIUM_PATH, packages: ["chromium", "chromium-driver"], env: "CHROMIUM_PATH", present: () => existsSync(CHROMIUM_PATH) },
  { what: "chromedriver", path: CHROMEDRIVER_PATH, packages: ["chromium", "chromium-driver"], env: "CHROMEDRIVER_PATH", present: () => existsSync(CHROMEDRIVER_PATH) },
  { what: "Java", path: JAVA_PATH, packages: ["default-jre-headless"], env: "JAVA_PATH", present: () => existsSync(JAVA_PATH) },
  {
    what: "Python's selenium and pytest",
    path: PYTHON,
    packages: ["python3-selenium", "python3-pytest"],
    env: "DEBIAN_PYTHON",
    present: () => existsSync(PYTHON) && run(PYTHON, ["-c", "import selenium, pytest"], "ignore"),
  },
];
const missing = tools.filter((tool) => !tool.present());
const packages = [...new Set(missing.flatMap((m) => m.packages))];

if (missing.length > 0) {
  const isRoot = process.getuid?.() === 0;
  const hasApt = existsSync("/usr/bin/apt-get");
  const custom = missing.some((m) => process.env[m.env]);
  const command = `apt-get install -y ${packages.join(" ")}`;
  const list = missing.map((m) => `${m.what} at ${m.path}`).join(" and ");
  if (!isRoot || !hasApt || custom) {
    console.error(
      `The tests need ${list}, and ${missing.length > 1 ? "they are" : "it is"} not there. Install them with "${command}" as root, ` +
        `or set ${missing.map((m) => m.env).join(" and ")} to ${missing.length > 1 ? "executables" : "an executable"} elsewhere${missing.some((m) => m.env === "DEBIAN_PYTHON") ? " (a Python with selenium and pytest)" : ""}.`,
    );
    process.exit(1);
  }
  console.log(`The tests need ${list}: installing with apt-get (about 30 s)…`);
  if (!run("apt-get", ["update", "-qq"]) || !run("apt-get", ["install", "-y", "-qq", ...packages]) || missing.some((m) => !m.present())) {
    console.error(`Installing failed; install them by hand with "${command}" and run the tests again.`);
    process.exit(1);
  }
}
