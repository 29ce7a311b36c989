// `npm run play`'s reports (CONTRACT section 17), in a real process with real Chromium: a failing
// test's JUnit read back with a JUnit parser (junit2json): its message names the command as
// `#N COMMAND TARGET:` and <system-out> attaches the failing command's picture; the HTML report
// opened from file:// in headless Chromium, with no request leaving it, open at the failure with
// its picture; and --retries on a page that fails its first load: the test is flaky, exit 0, and
// in a suite it plays again at once, before the suite's next test. A run with more failures than
// the traces folder keeps still reports every one's picture.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parse } from "junit2json";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { playCli } from "../support/playCli.ts";
import { KEPT_TRACES } from "../../services/traces/index.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
let dir: string;
let loads = 0;
let server: ReturnType<typeof createServer>;
let origin: string;

// /shop: a cart; /flaky: "broken" at its first load, "ready" after (the page counts its loads).
const SHOP = `<!doctype html><title>Shop</title><button id="add" onclick="document.getElementById('count').textContent='1'; console.error('stock service down: 503')">Add</button><p id="count">0</p>`;
const flakyPage = (n: number) => `<!doctype html><title>Flaky</title><p id="state">${n === 1 ? "broken" : "ready"}</p>`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ide-core-report-"));
  server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const body = path === "/shop" ? SHOP : path === "/flaky" ? flakyPage(++loads) : null;
    res.writeHead(body === null ? 404 : 200, { "content-type": "text/html; charset=utf-8" });
    res.end(body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

const command = (id: string, name: string, target = "", value = "") => ({ id, comment: "", command: name, target, targets: [], value });

type Suite = { id: string; name: string; persistSession: boolean; parallel: boolean; timeout: number; tests: string[] };

/** The picture each test case of a JUnit file attaches (`[[ATTACHMENT|path]]`), in order. */
async function attachedPictures(junit: string): Promise<Array<string | undefined>> {
  const parsed = await parse(readFileSync(junit, "utf8"));
  const cases = parsed && "testsuite" in parsed ? (parsed.testsuite ?? []).flatMap((s) => s.testcase ?? []) : [];
  return cases.map((c) => c["system-out"]?.[0].match(/^\[\[ATTACHMENT\|(.+)\]\]$/)?.[1]);
}

function project(file: string, tests: Array<{ id: string; name: string; commands: ReturnType<typeof command>[] }>, suites: Suite[] = []) {
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify({ id: "p", name: "Report project", url: origin, version: "2.0", tests, suites, urls: [], plugins: [] }));
  return path;
}

describe("npm run play's reports", () => {
  it("writes JUnit a JUnit parser reads, naming the failing command and attaching its picture, and an HTML report that opens offline at the failure", async () => {
    const file = project("failing.side", [
      { id: "t-ok", name: "adds", commands: [command("a1", "open", "/shop"), command("a2", "click", "id=add"), command("a3", "assertText", "id=count", "1")] },
      { id: "t-bad", name: "adds two", commands: [command("b1", "open", "/shop"), command("b2", "click", "id=add"), command("b3", "assertText", "id=count", "2")] },
    ]);
    const junit = join(dir, "failing.xml");
    const reportDir = join(dir, "report");
    const run = await playCli([file, "--junit", junit, "--report", reportDir], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^2 tests: 1 passed, 1 failed, 0 fatal in \d+\.\d\d s$/m);
    expect(run.stdout).toContain(`html report    ${join(reportDir, "index.html")}`);

    const parsed = await parse(readFileSync(junit, "utf8"));
    const cases = parsed && "testsuite" in parsed ? (parsed.testsuite ?? []).flatMap((s) => s.testcase ?? []) : [];
    expect(cases.map((c) => c.name)).toEqual(["adds", "adds two"]);
    expect(cases[0].failure).toBeUndefined();
    expect(cases[1].failure?.[0].message).toMatch(/^#3 assertText id=count: .*2/);
    const attachment = cases[1]["system-out"]?.[0].match(/^\[\[ATTACHMENT\|(.+)\]\]$/)?.[1];
    expect(attachment).toMatch(/^\/.+\.jpg$/);
    expect([...readFileSync(attachment!).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

    const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
    try {
      const page = await browser.newPage();
      const leaving: string[] = [];
      page.on("request", (request) => {
        if (!request.url().startsWith("file:")) leaving.push(request.url());
      });
      await page.goto(pathToFileURL(join(reportDir, "index.html")).href);
      await page.waitForLoadState("load");
      expect(await page.locator(".counts").innerText()).toMatch(/2 tests\s*1 passed\s*1 failed\s*0 flaky\s*0 fatal\s*0 healed/);
      const failed = page.locator("details.test", { hasText: "adds two" });
      expect(await failed.getAttribute("open")).not.toBeNull();
      expect(await page.locator("details.test", { hasText: /^passed adds ·/ }).getAttribute("open")).toBeNull();
      const picture = failed.getByRole("img", { name: "The page after command 3: assertText" });
      expect(await picture.isVisible()).toBe(true);
      expect(await picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      expect(await failed.locator("tr").allInnerTexts()).toEqual(
        expect.arrayContaining([expect.stringMatching(/^1\s+open\s+\/shop\s+passed/), expect.stringMatching(/^3\s+assertText\s+id=count\s+2\s+failed/)]),
      );
      expect(leaving).toEqual([]);
      // The README's picture of the report (UPDATE_SCREENSHOT=1 npx vitest run tests/play/report.test.ts).
      if (process.env.UPDATE_SCREENSHOT) {
        await page.setViewportSize({ width: 1100, height: 900 });
        await page.screenshot({ path: join(ROOT, "docs", "report.png"), fullPage: true });
      }
    } finally {
      await browser.close();
    }
  }, 180_000);

  it("plays a failed test again with --retries 2: passing on the second try it is flaky, and the run exits 0", async () => {
    const file = project("flaky.side", [{ id: "t-flaky", name: "gets ready", commands: [command("f1", "open", "/flaky"), command("f2", "assertText", "id=state", "ready")] }]);
    const junit = join(dir, "flaky.xml");
    loads = 0;
    const run = await playCli([file, "--retries", "2", "--junit", junit], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(loads).toBe(2);
    expect(run.stdout).toMatch(/^failed {2}gets ready {2}\d+\.\d\d s$/m);
    expect(run.stdout).toMatch(/^flaky {3}gets ready {2}\d+\.\d\d s {2}\(try 2 of 3\)$/m);
    expect(run.stdout).toMatch(/^1 test: 0 passed, 0 failed, 1 flaky, 0 fatal in \d+\.\d\d s$/m);
    const parsed = await parse(readFileSync(junit, "utf8"));
    const testcase = parsed && "testsuite" in parsed ? parsed.testsuite![0].testcase![0] : null;
    expect(testcase?.failure).toBeUndefined();
    const flaky = (testcase as Record<string, unknown> | null)?.flakyFailure as Array<{ message?: string }> | undefined;
    expect(flaky?.map((f) => f.message)).toEqual([expect.stringMatching(/^#2 assertText id=state: /)]);
    // Each try has its own trace: the failed one is kept (retain-on-failure), the passing one is not.
    const kept = readdirSync(join(dir, "traces")).map((id) => JSON.parse(readFileSync(join(dir, "traces", id, "trace.json"), "utf8")) as { testName: string; result: string });
    expect(kept.filter((t) => t.testName === "gets ready").map((t) => t.result)).toEqual(["failed"]);
  }, 180_000);

  it("plays a suite's failed test again at once with --retries 1, before the suite's next test: flaky, exit 0, with its flakyFailure", async () => {
    const suite = { id: "s-flaky", name: "Flaky suite", persistSession: true, parallel: false, timeout: 300, tests: ["t-flaky", "t-shop"] };
    const file = project(
      "flaky-suite.side",
      [
        { id: "t-flaky", name: "gets ready", commands: [command("f1", "open", "/flaky"), command("f2", "assertText", "id=state", "ready")] },
        { id: "t-shop", name: "adds", commands: [command("s1", "open", "/shop"), command("s2", "click", "id=add"), command("s3", "assertText", "id=count", "1")] },
      ],
      [suite],
    );
    const junit = join(dir, "flaky-suite.xml");
    loads = 0;
    const run = await playCli([file, "--retries", "1", "--junit", junit, "--trace", "on"], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(loads).toBe(2);
    const lines = run.stdout.split("\n");
    const firstTry = lines.findIndex((l) => /^failed {2}gets ready {2}\(suite Flaky suite\) {2}\d+\.\d\d s$/.test(l));
    const retry = lines.findIndex((l) => /^flaky {3}gets ready {2}\(suite Flaky suite\) {2}\d+\.\d\d s {2}\(try 2 of 2\)$/.test(l));
    const next = lines.findIndex((l) => /^passed {2}adds {2}\(suite Flaky suite\) {2}\d+\.\d\d s$/.test(l));
    expect([firstTry >= 0, retry > firstTry, next > retry]).toEqual([true, true, true]);
    expect(run.stdout).toMatch(/^2 tests: 1 passed, 0 failed, 1 flaky, 0 fatal in \d+\.\d\d s$/m);
    const parsed = await parse(readFileSync(junit, "utf8"));
    const suites = parsed && "testsuite" in parsed ? (parsed.testsuite ?? []) : [];
    expect(suites.map((s) => s.name)).toEqual(["Flaky suite"]);
    const cases = suites[0].testcase ?? [];
    expect(cases.map((c) => [c.name, c.failure === undefined])).toEqual([
      ["gets ready", true],
      ["adds", true],
    ]);
    const flaky = (cases[0] as Record<string, unknown>).flakyFailure as Array<{ message?: string }> | undefined;
    expect(flaky?.map((f) => f.message)).toEqual([expect.stringMatching(/^#2 assertText id=state: /)]);
    expect((cases[1] as Record<string, unknown>).flakyFailure).toBeUndefined();
    // Each try has its own trace (--trace on keeps them all), in the order they played.
    const traces = readdirSync(join(dir, "traces")).sort().map((id) => JSON.parse(readFileSync(join(dir, "traces", id, "trace.json"), "utf8")) as { testName: string; suiteName: string | null; result: string });
    expect(traces.filter((t) => t.suiteName === "Flaky suite").map((t) => `${t.testName} ${t.result}`)).toEqual(["gets ready failed", "gets ready passed", "adds passed"]);
  }, 180_000);

  it("keeps every failed test's pictures in the report when more tests fail than the traces folder keeps, and the folder keeps its last 20 after", async () => {
    // One more failing test than KEPT_TRACES: the folder's bound used to drop the run's first traces before the report copied them.
    const count = KEPT_TRACES + 1;
    const tests = Array.from({ length: count }, (_, i) => ({ id: `t${i}`, name: `fails ${i + 1}`, commands: [command(`o${i}`, "open", "/shop"), command(`a${i}`, "assertTitle", "Not the shop")] }));
    const file = project("many-failing.side", tests);
    const data = mkdtempSync(join(dir, "many-"));
    const junit = join(data, "many.xml");
    const reportDir = join(data, "report");
    const run = await playCli([file, "--junit", junit, "--report", reportDir], data);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^${count} tests: 0 passed, ${count} failed, 0 fatal in \\d+\\.\\d\\d s$`, "m"));
    // Each failed test's picture, copied into the report, is what JUnit attaches.
    const attached = await attachedPictures(junit);
    expect(attached).toHaveLength(count);
    for (const picture of attached) {
      expect(picture?.startsWith(reportDir)).toBe(true);
      expect([...readFileSync(picture!).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    }
    expect(readdirSync(join(reportDir, "traces"))).toHaveLength(count);
    expect(readdirSync(join(data, "traces"))).toHaveLength(KEPT_TRACES);

    // Without --report, the JUnit names the pictures in the traces folder: the run keeps them all until the next run.
    const again = await playCli([file, "--junit", junit], data);
    expect(again.code).toBe(1);
    expect(again.stdout).toContain(`traces         ${count} kept by this run until the next one, as its JUnit names their pictures; --report DIR keeps copies`);
    const named = await attachedPictures(junit);
    expect(named).toHaveLength(count);
    for (const picture of named) expect(picture !== undefined && existsSync(picture)).toBe(true);
    expect(readdirSync(join(data, "traces"))).toHaveLength(count);

    // Without either, the run says the folder will not keep all it wrote, and keeps its last 20.
    const bare = await playCli([file], data);
    expect(bare.code).toBe(1);
    expect(bare.stdout).toContain(`traces         ${count} kept by this run; the folder keeps the last ${KEPT_TRACES}, so --report DIR keeps every one's pictures`);
    expect(readdirSync(join(data, "traces"))).toHaveLength(KEPT_TRACES);
  }, 300_000);
});
