// Projects written by others for side-runner play here as they play there (issue 35, item 8).
//
// tests/fixtures/side-runner/projects holds real `.side` projects (Selenium IDE's own examples and
// selenese-runner-java's test projects; README.md beside them names each source, commit and
// licence) and sites/ pages written here that their commands fit, served on 127.0.0.1. Each project
// is copied to a temporary folder with its URLs pointed at those servers (ORIGINS below); its
// commands stay as written. Every batch is played twice, side by side: by `selenium-side-runner`
// 4.0.13 (the devDependency) and by `npm run play` (bin/play.ts), each writing side-runner's jest
// JSON (`--output-directory`), and the two results are printed test by test. Every test
// side-runner passes must pass here; those only ours passes are listed (docs/play.md says why).
//
// side-runner offline: it is given `-s URL` of a chromedriver started here (Debian's,
// /usr/bin/chromedriver, on 127.0.0.1), so selenium-webdriver builds a remote session and never
// runs selenium-manager (which would download a driver); Chromium is named in the capabilities
// (`goog:chromeOptions.binary`, headless), through a config file given with `-n`. `-j
// '"--forceExit"'` lets its jest end as soon as the tests are done.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMEDRIVER_PATH, startChromedriver } from "../../drivers/host/chromedriver.ts";
import type { Chromedriver } from "../../drivers/host/chromedriver.ts";
import { CHROMIUM_FLAGS } from "../../drivers/host/chromium.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURES = join(ROOT, "tests/fixtures/side-runner");
const SIDE_RUNNER = join(ROOT, "node_modules/.bin/selenium-side-runner");
/** A whole runner's play of one batch; past it the run is ended and the test fails. */
const RUN_LIMIT_MS = 12 * 60_000;

/** The projects' own origins, and the site folder under sites/ served in their place. */
const ORIGINS: Record<string, string> = {
  "http://localhost:8080": "nginx",
  "http://nginx": "nginx",
  "http://www.google.com": "nginx",
  "http://the-internet.herokuapp.com": "the-internet",
  "https://the-internet.herokuapp.com": "the-internet",
  "https://en.wikipedia.org": "wikipedia",
  "http://localhost": "selenese",
  "https://w3.org": "w3",
};

/**
 * What each runner plays, in one process per batch (a batch holds no two projects of one name, since
 * side-runner's results name projects by their names). `filter` is side-runner v4's `-f`.
 */
const BATCHES: Array<{ name: string; projects: string[]; filter?: string }> = [
  {
    name: "suites",
    projects: [
      "selenium-ide/check-examples.side",
      "selenium-ide/control-flow.side",
      "selenium-ide/execute-script.side",
      "selenium-ide/executescript.side",
      "selenium-ide/frames.side",
      "selenium-ide/mouse-events.side",
      "selenium-ide/nested-select-window-v2.side",
      "selenium-ide/nginx-examples.side",
      "selenium-ide/select-examples.side",
      "selenium-ide/select-window.side",
      "selenium-ide/store-examples.side",
      "selenium-ide/test-case-reuse.side",
      "selenium-ide/text-comparison.side",
      "selenium-ide/variable-in-conditional.side",
      "selenium-ide/wait-for.side",
      "selenese-runner-java/testcase_alerts.side",
      "selenese-runner-java/testcase_execute_async_script_success.side",
      "selenese-runner-java/testcase_flowcontrol.side",
      "selenese-runner-java/testcase_issue324.side",
      "selenese-runner-java/testcase_loop_limit.side",
      "selenese-runner-java/testcase_run.side",
      "selenese-runner-java/testcase_storejson.side",
      "selenese-runner-java/testcase_window_handle.side",
    ],
  },
  // The v3 control-flow project's tests outside its one suite, each alone (no suite name matches),
  // and the v3 nginx examples' suites (their names match).
  { name: "v3", projects: ["selenium-ide/control-flow-suite-v3.side", "selenium-ide/nginx-examples-v3.side"], filter: "^(?!control flow)" },
  // The two nginx examples in no suite, which side-runner plays only when a filter names them.
  { name: "loose", projects: ["selenium-ide/nginx-examples.side"], filter: "^(form submit|send keys)$" },
];

const servers: Server[] = [];
/** Site folder name → its origin here. */
const sites = new Map<string, string>();
let chromedriver: Chromedriver;
let work: string;

/** Serves `folder`: `/a/b` is `a/b`, `a/b.html` or `a/b/index.html`, whichever is a file. */
function serve(folder: string): Promise<string> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    for (const candidate of [path, `${path}.html`, join(path, "index.html")]) {
      try {
        const body = readFileSync(join(folder, candidate));
        res.writeHead(200, { "content-type": extname(candidate) === ".html" ? "text/html; charset=utf-8" : "text/plain" }).end(body);
        return;
      } catch {
        // not this one
      }
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** `url` with its origin, when it is one of ORIGINS, replaced by the local site's. */
function localUrl(url: string): string {
  for (const [origin, site] of Object.entries(ORIGINS)) {
    if (url === origin || url.startsWith(`${origin}/`)) return sites.get(site)! + url.slice(origin.length);
  }
  return url;
}

interface Command {
  command: string;
  target: string;
}

/** The project copied into `folder`, its base URL and its `open`s of absolute URLs pointed here. */
function adapt(project: string, folder: string): string {
  const side = JSON.parse(readFileSync(join(FIXTURES, "projects", project), "utf8"));
  side.url = localUrl(side.url);
  for (const test of side.tests as Array<{ commands: Command[] }>) {
    for (const command of test.commands) if (command.command === "open") command.target = localUrl(command.target);
  }
  const path = join(folder, basename(project));
  writeFileSync(path, JSON.stringify(side, null, 2));
  return path;
}

interface Ran {
  code: number | null;
  output: string;
}

/** Runs `command` in its own process group, so that a run past RUN_LIMIT_MS ends with everything it started. */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  const child = spawn(command, args, { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const limit = setTimeout(() => {
    output += `\n(ended after ${RUN_LIMIT_MS} ms)`;
    process.kill(-child.pid!, "SIGKILL");
  }, RUN_LIMIT_MS);
  return new Promise((resolve) =>
    child.once("exit", (code) => {
      clearTimeout(limit);
      resolve({ code, output });
    }),
  );
}

interface Result {
  status: "passed" | "failed";
  /** The failure's message without its stack, on one line, for the printed comparison. */
  failure: string;
}

/** Test key (`project › suite › test`) → its result, from the jest JSON a runner wrote in `folder`. */
function results(folder: string): Map<string, Result> {
  const files = readdirSync(folder).filter((name) => name.endsWith(".json"));
  expect(files, `one jest JSON in ${folder}`).toHaveLength(1);
  const jest = JSON.parse(readFileSync(join(folder, files[0]), "utf8")) as {
    testResults: Array<{ assertionResults: Array<{ ancestorTitles: string[]; title: string; status: string; failureMessages: string[] }> }>;
  };
  const found = new Map<string, Result>();
  for (const file of jest.testResults) {
    for (const test of file.assertionResults) {
      const key = [...test.ancestorTitles, test.title].map((title) => title.replace(/^Running (project|suite|test) /, "")).join(" › ");
      found.set(key, { status: test.status === "passed" ? "passed" : "failed", failure: (test.failureMessages[0] ?? "").split(/\n\s+at /)[0].replace(/\s+/g, " ") });
    }
  }
  return found;
}

async function sideRunner(batch: string, files: string[], filter: string | undefined): Promise<Map<string, Result>> {
  const folder = join(work, batch, "side-runner");
  mkdirSync(folder, { recursive: true });
  const config = join(work, batch, "side-runner.yml");
  // JSON is YAML: the capabilities as a mapping, so the flags' commas need no quoting.
  const capabilities = { browserName: "chrome", "goog:chromeOptions": { binary: "/usr/bin/chromium", args: [...CHROMIUM_FLAGS, "--headless=new", "--window-size=1280,900"] } };
  writeFileSync(config, JSON.stringify({ capabilities }));
  const args = [...files, "-n", config, "-s", chromedriver.url, "-o", folder, "-j", '"--forceExit"'];
  if (filter) args.push("-f", filter);
  const ran = await run(SIDE_RUNNER, args, join(work, batch));
  const found = results(folder);
  expect(found.size, `side-runner played nothing:\n${ran.output}`).toBeGreaterThan(0);
  return found;
}

async function ours(batch: string, files: string[], filter: string | undefined): Promise<Map<string, Result>> {
  const folder = join(work, batch, "ours");
  mkdirSync(folder, { recursive: true });
  const args = ["--import", "tsx", "bin/play.ts", ...files, "--output-directory", folder, "--output-format", "jest"];
  args.push("--trace", "off", "--port", "0", "--token-file", join(work, batch, "token"));
  if (filter) args.push("-f", filter);
  const ran = await run(process.execPath, args, ROOT, { INIT_CWD: join(work, batch) });
  const found = results(folder);
  expect(found.size, `npm run play played nothing:\n${ran.output}`).toBeGreaterThan(0);
  return found;
}

beforeAll(async () => {
  for (const site of readdirSync(join(FIXTURES, "sites"))) sites.set(site, await serve(join(FIXTURES, "sites", site)));
  chromedriver = await startChromedriver(CHROMEDRIVER_PATH, 20_000);
  work = mkdtempSync(join(tmpdir(), "ide-core-side-runner-compat-"));
}, 30_000);

afterAll(async () => {
  chromedriver?.kill("SIGTERM");
  if (work) rmSync(work, { recursive: true, force: true });
  await Promise.all(servers.map((server) => new Promise<void>((done) => server.close(() => done()))));
});

describe("projects written for side-runner", () => {
  it.each(BATCHES)(
    "pass here wherever side-runner 4.0.13 passes them ($name)",
    async ({ name, projects, filter }) => {
      const folder = join(work, name);
      mkdirSync(folder, { recursive: true });
      const files = projects.map((project) => adapt(project, folder));
      const theirs = await sideRunner(name, files, filter);
      const mine = await ours(name, files, filter);

      const status = (found: Map<string, Result>, key: string) => found.get(key)?.status ?? "-";
      const lines = [`batch ${name}: side-runner | ours | test`];
      for (const key of new Set([...theirs.keys(), ...mine.keys()])) {
        lines.push(`  ${status(theirs, key)} | ${status(mine, key)} | ${key}`);
        for (const [who, found] of [["side-runner", theirs], ["ours", mine]] as const) {
          if (found.get(key)?.status === "failed") lines.push(`      ${who}: ${found.get(key)!.failure.slice(0, 200)}`);
        }
      }
      const onlyOurs = [...mine.keys()].filter((key) => status(mine, key) === "passed" && status(theirs, key) === "failed");
      lines.push(`  side-runner fails, ours passes: ${onlyOurs.length ? onlyOurs.join("; ") : "none"}`);
      console.log(lines.join("\n"));

      // Both played the same tests, and every test side-runner passes passes here too.
      expect([...mine.keys()].sort()).toEqual([...theirs.keys()].sort());
      const theirsOnly = [...theirs.keys()].filter((key) => status(theirs, key) === "passed" && status(mine, key) !== "passed");
      expect(theirsOnly).toEqual([]);
    },
    2 * RUN_LIMIT_MS + 60_000,
  );
});
