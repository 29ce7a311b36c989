// Chrome Recorder's flows played side by side (CONTRACT section 23): flows written as the
// Recorder writes them against pages served here (a form with change and keys, shadow DOM, a
// frame, waits for elements and expressions, a popup, hover and double click), and flows the
// Recorder itself recorded, collected from public projects (tests/fixtures/chrome-recorder/,
// its README names each source; their URLs pointed at pages written again here), are each played
// by @puppeteer/replay's own runner (puppeteer-core on /usr/bin/chromium) and by `npm run play`
// on the .json file; both pass counts are printed, and every flow theirs passes ours passes. A
// .side test exported with `npm run export -- --language chrome-recorder` plays in their runner.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRunner, parse, PuppeteerRunnerExtension } from "@puppeteer/replay";
import type { UserFlow } from "@puppeteer/replay";
import { parse as parseJunit } from "junit2json";
import puppeteer from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { playCli } from "../support/playCli.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const COLLECTED = join(ROOT, "tests/fixtures/chrome-recorder");
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

const PAGES: Record<string, string> = {
  "/form.html": `<!doctype html><title>Form</title>
    <input id="name" aria-label="Name"><p id="out"></p>
    <script>document.getElementById("name").addEventListener("keydown", (e) => {
      if (e.key === "Enter") document.getElementById("out").textContent = "Hello " + e.target.value; });</script>`,
  "/shadow.html": `<!doctype html><title>Shadow</title><my-app></my-app>
    <script>const root = document.querySelector("my-app").attachShadow({ mode: "open" });
      root.innerHTML = '<button id="inner">Press</button><span id="state">idle</span>';
      root.getElementById("inner").addEventListener("click", () => { root.getElementById("state").id = "pressed"; });</script>`,
  "/frame.html": `<!doctype html><title>Frame</title><iframe src="/inner.html"></iframe><button id="top" onclick="this.textContent='done'">Top</button>`,
  "/inner.html": `<!doctype html><title>Inner</title><button id="in" onclick="this.className='done'">In</button>`,
  "/wait.html": `<!doctype html><title>Wait</title><p id="spinner">…</p>
    <script>setTimeout(() => { document.getElementById("spinner").remove(); const p = document.createElement("p");
      p.id = "late"; p.textContent = "Loaded"; document.body.append(p); window.ready = true; }, 400);</script>`,
  "/popup.html": `<!doctype html><title>Opener</title><a id="open" href="/child.html" target="_blank">Open</a><button id="back" onclick="this.textContent='back'">Back</button>`,
  "/child.html": `<!doctype html><title>Child</title><button id="ok" onclick="this.textContent='ok'">OK</button>`,
  "/mouse.html": `<!doctype html><title>Mouse</title><div style="height:1500px"><button id="hover" onmouseover="this.id='hovered'">Hover</button>
    <button id="twice" ondblclick="this.id='doubled'">Twice</button><a href="#next">Next page</a></div>`,
};

let server: ReturnType<typeof createServer>;
let origin: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ide-core-chrome-recorder-"));
  server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    // The collected flows' pages under /recorded/, apart from the pages written for the flows above.
    const page = join(COLLECTED, "pages", path.slice("/recorded/".length));
    const body = PAGES[path] ?? (/^\/recorded\/[\w-]+\.html$/.test(path) && existsSync(page) ? readFileSync(page, "utf8") : undefined);
    res.writeHead(body === undefined ? 404 : 200, { "content-type": "text/html; charset=utf-8" });
    res.end(body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

const viewport = { type: "setViewport", width: 1000, height: 700, deviceScaleFactor: 1, isMobile: false, hasTouch: false, isLandscape: false };
const go = (path: string, title: string) => ({ type: "navigate", url: origin + path, assertedEvents: [{ type: "navigation", url: origin + path, title }] });
const click = (selectors: unknown[], extra: Record<string, unknown> = {}) => ({ type: "click", target: "main", selectors, offsetX: 4, offsetY: 4, ...extra });

/** How many of flows() are written here (the collected ones follow). */
const WRITTEN_HERE = 6;

function flows(): UserFlow[] {
  const child = `${origin}/child.html`;
  const list = [
    { title: "form with keys", steps: [viewport, go("/form.html", "Form"), click([["aria/Name"], ["#name"]]), { type: "change", target: "main", selectors: [["aria/Name"], ["#name"]], value: "Ada" },
      { type: "keyDown", target: "main", key: "Enter" }, { type: "keyUp", target: "main", key: "Enter" }, { type: "waitForElement", selectors: [["text/Hello Ada"]] }] },
    { title: "shadow DOM", steps: [go("/shadow.html", "Shadow"), click([["my-app", "#inner"], ["pierce/#inner"]]), { type: "waitForElement", selectors: [["my-app", "#pressed"]] }] },
    { title: "frame", steps: [go("/frame.html", "Frame"), click([["#in"], ["xpath///*[@id=\"in\"]"]], { frame: [0] }), { type: "waitForElement", frame: [0], selectors: [["#in.done"]] }, click([["#top"]]),
      { type: "waitForExpression", expression: "document.getElementById('top').textContent === 'done'" }] },
    { title: "waits", steps: [go("/wait.html", "Wait"), { type: "waitForElement", selectors: [["#late"]] }, { type: "waitForExpression", expression: "window.ready === true" },
      { type: "waitForElement", selectors: [["#spinner"]], operator: "==", count: 0 }, { type: "waitForElement", selectors: [["text/Loaded"]], visible: true }] },
    { title: "popup", steps: [go("/popup.html", "Opener"), click([["aria/Open"], ["#open"]]), click([["#ok"]], { target: child }), { type: "waitForExpression", target: child, expression: "document.getElementById('ok').textContent === 'ok'" },
      { type: "close", target: child }, click([["#back"]]), { type: "waitForElement", selectors: [["text/back"]] }] },
    { title: "mouse", steps: [go("/mouse.html", "Mouse"), { type: "hover", selectors: [["aria/Hover[role=\"button\"]"], ["#hover"]] }, { type: "waitForElement", selectors: [["#hovered"]] },
      { type: "doubleClick", selectors: [["text/Twice"]], offsetX: 3, offsetY: 3 }, { type: "waitForElement", selectors: [["#doubled"]] }, { type: "scroll", x: 0, y: 400 },
      { type: "waitForExpression", expression: "window.scrollY === 400" }, click([["aria/Next page"], ["text/Next page"]]), { type: "waitForExpression", expression: "location.hash === '#next'" }] },
  ];
  return [...list, ...collectedFlows()].map((flow) => parse(flow));
}

// The origins the collected flows were recorded at, each with the path its pages had there.
const RECORDED_AT = ["https://localhost:<test-port>/test/e2e/resources/recorder/", "http://localhost:8907/"];

/**
 * The collected flows, as the README says they are adapted: their URLs pointed at the pages here,
 * each titled by its file (the Recorder titles them all "New Recording"), and a click the
 * DevTools snapshots left without its offsets (they leave them out; the Recorder writes them)
 * given 1, 1. Their steps, selectors and order are the files'.
 */
function collectedFlows(): unknown[] {
  const folder = join(COLLECTED, "flows");
  return readdirSync(folder).filter((name) => name.endsWith(".json")).sort().map((name) => {
    let text = readFileSync(join(folder, name), "utf8");
    for (const at of RECORDED_AT) text = text.split(at).join(`${origin}/recorded/`);
    const flow = JSON.parse(text) as { title: string; steps: Array<Record<string, unknown>> };
    flow.title = name.replace(/\.json$/, "");
    for (const step of flow.steps) {
      if ((step.type === "click" || step.type === "doubleClick") && step.offsetX === undefined) Object.assign(step, { offsetX: 1, offsetY: 1 });
    }
    return flow;
  });
}

/** Each flow played by @puppeteer/replay's runner in a page of its own (one browser for all): whether it passed. */
async function theirs(list: UserFlow[]): Promise<Map<string, boolean>> {
  const browser = await puppeteer.launch({ executablePath: "/usr/bin/chromium", headless: true, args: FLAGS });
  const results = new Map<string, boolean>();
  try {
    for (const flow of list) {
      const page = await browser.newPage();
      try {
        // 15 s a step: a flow that throttles the network (emulateNetworkConditions) loads a page
        // and its frames in more than their default 5 s.
        const runner = await createRunner(flow, new PuppeteerRunnerExtension(browser, page, { timeout: 15_000 }));
        results.set(flow.title, await runner.run());
      } catch (error) {
        console.log(`@puppeteer/replay failed "${flow.title}": ${(error as Error).message}`);
        results.set(flow.title, false);
      }
      for (const open of await browser.pages()) await open.close();
    }
  } finally {
    await browser.close();
  }
  return results;
}

function exportCli(args: string[]): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "bin/export.ts", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

describe("Chrome Recorder's flows, theirs and ours", () => {
  it("passes with npm run play every flow @puppeteer/replay's runner passes, printing both counts", async () => {
    const all = flows();
    const theirResults = await theirs(all);
    const files = all.map((flow, i) => {
      const file = join(dir, `flow-${i}.json`);
      writeFileSync(file, JSON.stringify(flow, null, 2));
      return file;
    });
    const junit = join(dir, "flows.xml");
    const played = await playCli([...files, "--junit", junit], dir);
    const report = await parseJunit(readFileSync(junit, "utf8"));
    const cases = report && "testsuite" in report ? (report.testsuite ?? []).flatMap((s) => s.testcase ?? []) : [];
    const ours = new Map(cases.map((c) => [c.name ?? "", c.failure === undefined && c.error === undefined]));
    const count = (results: Map<string, boolean>) => [...results.values()].filter(Boolean).length;
    console.log(`Chrome Recorder flows: @puppeteer/replay passes ${count(theirResults)} of ${all.length}, npm run play passes ${count(ours)} of ${all.length}`);
    for (const [title, passed] of theirResults) if (!passed || !ours.get(title)) console.log(`  ${title}: theirs ${passed ? "passed" : "failed"}, ours ${ours.get(title) ? "passed" : "failed"}`);
    if (played.code !== 0) console.log(played.stdout, played.stderr);
    // The flows written here are ones their runner plays: a failure of theirs is a page written wrong.
    expect(all.slice(0, WRITTEN_HERE).filter((flow) => !theirResults.get(flow.title)).map((flow) => flow.title)).toEqual([]);
    expect([...theirResults].filter(([title, passed]) => passed && !ours.get(title)).map(([title]) => title)).toEqual([]);
    // npm run play ends 0 when every test passed, 1 when one failed.
    expect(played.code).toBe(count(ours) === all.length ? 0 : 1);
    expect(ours.size).toBe(all.length);
  }, 1_200_000);

  it("exports a .side test as a flow that @puppeteer/replay's runner plays and passes", async () => {
    const commands = [
      ["open", "/form.html"], ["click", "id=name"], ["type", "id=name", "Grace"], ["sendKeys", "id=name", "${KEY_ENTER}"],
      ["waitForElementPresent", "xpath=//p[@id='out' and text()='Hello Grace']", "5000"], ["open", "/shadow.html"], ["assertTitle", "Shadow"],
      ["click", "css=my-app >>> #inner"], ["waitForElementPresent", "css=my-app >>> #pressed", "5000"],
      ["open", "/frame.html"], ["selectFrame", "index=0"], ["click", "linkText=In"], ["selectFrame", "relative=top"], ["click", "id=top"],
    ].map(([command, target, value = ""], i) => ({ id: `c${i}`, command, target, value }));
    // linkText on a button finds nothing: the exported xpath says a link, so the frame step uses the id.
    commands[11].target = "id=in";
    const side = join(dir, "exported.side");
    writeFileSync(side, JSON.stringify({ id: "p", name: "Exported", url: origin, version: "2.0", tests: [{ id: "t", name: "Side test", commands }], suites: [], urls: [], plugins: [] }));
    const out = join(dir, "out");
    const run = await exportCli([side, "--language", "chrome-recorder", "--test", "Side test", "--out", out]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const flow = parse(JSON.parse(readFileSync(join(out, "Side test.json"), "utf8")));
    expect(flow.steps.map((s) => s.type)).toContain("keyDown");
    expect((await theirs([flow])).get("Side test")).toBe(true);
  }, 120_000);
});
