// A .side file with fingerprints (CONTRACT section 18) is still a Selenium IDE v4 project: the
// real recorder records a test on a page in headless Chromium, the commands go into an IDE
// through ide.record() as the extension and the host send them, and ide-core's own save (the
// IDE's `save` port, written as the host writes a .side file) gives the file. That file then
// loads and plays green in Selenium IDE v4's own runtime, and the fingerprints survive a
// save/load round trip through ide-core (services/side/ at the door, the save port out).
//
// How Selenium IDE v4 loads it: @seleniumhq/side-model 4.0.13 has no project loader, validator
// or migrator; it exports only the file's shapes (`ProjectShape`, `CommandShape`), the command
// table `Commands` and `ArgTypes`. v4's side-runner loads a project with `JSON.parse` of the
// file (side-runner/src/main.test.ts), checks its `version` against "2.0" with semver
// (side-runner/src/versioner.ts: same major, else it refuses to run), and plays each test with
// side-runtime's `new Playback({ baseUrl: project.url, executor: new WebDriverExecutor({
// capabilities, server }), getTestByName, logger, variables: new Variables() })`
// (side-runner/src/run.ts). This test does exactly that, with the version check written out
// (semver is not a dependency here: "2.0" and the file's major must match), every command
// checked to be one of side-model's `Commands` (the names v4's IDE knows), and the executor
// taken straight from side-runtime: this file never imports drivers/host/browserSession.ts,
// so none of ide-core's fixes to WebDriverExecutor's prototype are in play. The driver is
// Debian's chromedriver (/usr/bin/chromedriver) with Chromium headless.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Commands } from "@seleniumhq/side-model";
import type { ProjectShape, TestShape } from "@seleniumhq/side-model";
import PlaybackModule, { PlaybackEvents } from "@seleniumhq/side-runtime/dist/playback.js";
import VariablesModule from "@seleniumhq/side-runtime/dist/variables.js";
import WebDriverExecutorModule from "@seleniumhq/side-runtime/dist/webdriver.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIde } from "../../index.ts";
import { CHROMEDRIVER_PATH, startChromedriver } from "../../drivers/host/chromedriver.ts";
import type { Chromedriver } from "../../drivers/host/chromedriver.ts";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../../drivers/host/chromium.ts";
import { parseSideProject } from "../../services/side/index.ts";
import { recorderInPages } from "../support/recorderPage.ts";

// CommonJS modules with `exports.default`: Node's ESM loader hands over the exports object.
const unwrap = <T,>(module: T): T => (module as { default?: T }).default ?? module;
const Playback = unwrap(PlaybackModule);
const Variables = unwrap(VariablesModule);
const WebDriverExecutor = unwrap(WebDriverExecutorModule);

const FORM = `<!doctype html><html><body><main><h1>Greeting</h1>
<label for="who">Your name</label> <input id="who" data-testid="name-field" type="text">
<button type="button" data-testid="greet" onclick="document.getElementById('out').textContent = 'Hello ' + document.getElementById('who').value">Greet</button>
<p id="out"></p></main></body></html>`;

const recorder = recorderInPages({ "/form": FORM }, "/form");
const silent = { info() {}, log() {}, warn() {}, error() {}, debug() {} } as unknown as Console;
let chromedriver: Chromedriver;

beforeAll(async () => {
  chromedriver = await startChromedriver(CHROMEDRIVER_PATH, 30_000);
}, 60_000);

afterAll(() => chromedriver?.kill("SIGTERM"));

/** The .side file's text as the host writes it (apps/host/host.ts): the project ide-core's save port was given. */
async function savedFile(ide: ReturnType<typeof createIde>, saves: unknown[]): Promise<string> {
  const before = saves.length;
  ide.send({ type: "user.saveProject" });
  const deadline = Date.now() + 10_000;
  while (saves.length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(saves.length, "the save port was called").toBe(before + 1);
  return `${JSON.stringify(saves.at(-1), null, 2)}\n`;
}

/** Plays `test` as side-runner does; each command's last state, and the run's. */
async function playInSideRuntime(project: ProjectShape, test: TestShape) {
  const executor = new WebDriverExecutor({
    server: chromedriver.url,
    capabilities: { browserName: "chrome", "goog:chromeOptions": { binary: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS, "--headless=new"] } } as never,
  });
  const playback = new Playback({
    baseUrl: project.url,
    executor,
    getTestByName: (name: string) => project.tests.find((t) => t.name === name) as TestShape,
    logger: silent,
    variables: new Variables(),
  });
  const states = new Map<string, string>();
  const messages: string[] = [];
  let final = "";
  const emitter = (playback as unknown as Record<string, import("node:events").EventEmitter>)["event-emitter"];
  emitter.on(PlaybackEvents.COMMAND_STATE_CHANGED, (event: { id: string; state: string; message?: string }) => {
    states.set(event.id, event.state);
    if (event.message) messages.push(event.message);
  });
  emitter.on(PlaybackEvents.PLAYBACK_STATE_CHANGED, (event: { state: string }) => (final = event.state));
  try {
    const finish = await playback.play(test);
    await Promise.race([finish(), new Promise((_, reject) => setTimeout(() => reject(new Error("side-runtime's run did not end within 60 s")), 60_000))]);
  } finally {
    await playback.cleanup().catch(() => {});
    await executor.cleanup().catch(() => {});
  }
  return { final, states: test.commands.map((c) => states.get(c.id)), messages };
}

describe("a .side file ide-core saved with fingerprints, in Selenium IDE v4", () => {
  it("loads as side-runner loads it and plays green in side-runtime's Playback with its WebDriverExecutor", async () => {
    // Recorded by the project's recorder in a real page: type into the field, then the click.
    const page = recorder.page();
    await page.click("#who");
    await page.keyboard.type("Ada");
    await page.click("button");
    const recorded = await recorder.recorded();
    expect(recorded.map((r) => r.command)).toEqual(["click", "type", "click"]);

    const saves: unknown[] = [];
    const origin = new URL(page.url()).origin;
    const ide = createIde({
      // As the IDE's new project (services/side/schema.ts, untitledProject) has it: version "2.0".
      project: { id: "p", name: "Greeting", version: "2.0", url: "", tests: [{ id: "t", name: "greets", commands: [] }] },
      save: async (project) => void saves.push(project),
    });
    ide.send({ type: "user.startRecording" });
    ide.record({ type: "recorder.pageSeen", url: `${origin}/form`, width: 1280, height: 900, tabId: null });
    for (const action of recorded) expect(ide.record({ type: "recorder.commandRecorded", ...action, tabId: null })).toBe(true);
    ide.send({ type: "user.stopRecording" });
    ide.send({ type: "user.addCommand", command: "assertText", target: "id=out", value: "Hello Ada", index: recorded.length + 2 });

    const text = await savedFile(ide, saves);
    const file = join(mkdtempSync(join(tmpdir(), "ide-core-side-compat-")), "greeting.side");
    writeFileSync(file, text);

    // side-runner's load: the file's JSON, its version of the same major as "2.0".
    const project = JSON.parse(readFileSync(file, "utf8")) as ProjectShape;
    expect(String(project.version).split(".")[0]).toBe("2");
    const [test] = project.tests;
    expect(test.commands.map((c) => c.command)).toEqual(["open", "setWindowSize", "click", "type", "click", "assertText"]);
    for (const command of test.commands) expect(Object.keys(Commands), command.command).toContain(command.command);
    // The fingerprints are in the file, on the commands that target an element, as ide-core keeps them.
    const withPrints = test.commands.filter((c) => "fingerprint" in c) as Array<TestShape["commands"][number] & { fingerprint: Record<string, unknown> }>;
    expect(withPrints.map((c) => c.command)).toEqual(["click", "type", "click"]);
    expect(withPrints[1]).toMatchObject({ target: 'css=[data-testid="name-field"]', fingerprint: { tag: "input", id: "who", label: "Your name" } });
    expect(withPrints[2].fingerprint).toMatchObject({ tag: "button", text: "Greet", testIds: { "data-testid": "greet" } });

    const run = await playInSideRuntime(project, test);
    expect(run.messages).toEqual([]);
    expect(run.states).toEqual(test.commands.map(() => "passed"));
    expect(run.final).toBe("finished");
  }, 120_000);

  it("keeps every fingerprint through ide-core's load and save, field for field", async () => {
    const page = recorder.page();
    await page.click("button");
    const [click] = await recorder.recorded();
    expect(click.fingerprint).toMatchObject({ tag: "button", text: "Greet" });

    const saves: unknown[] = [];
    const first = createIde({
      project: { id: "p", name: "Round trip", url: "http://127.0.0.1:1", tests: [{ id: "t", name: "greets", commands: [] }] },
      save: async (project) => void saves.push(project),
    });
    first.send({ type: "user.startRecording" });
    first.record({ type: "recorder.commandRecorded", ...click, tabId: null });
    first.send({ type: "user.stopRecording" });
    const text = await savedFile(first, saves);

    // Loaded again through services/side (the door every project comes in by), then saved again.
    const parsed = parseSideProject(JSON.parse(text));
    if (!parsed.ok) throw new Error(parsed.problem);
    const second = createIde({ project: parsed.project, save: async (project) => void saves.push(project) });
    const again = await savedFile(second, saves);
    const fingerprintIn = (side: string) => (JSON.parse(side) as ProjectShape).tests[0].commands.map((c) => (c as { fingerprint?: unknown }).fingerprint);
    expect(fingerprintIn(text)).toEqual([click.fingerprint]);
    expect(fingerprintIn(again)).toEqual(fingerprintIn(text));
    expect(JSON.parse(again)).toEqual(JSON.parse(text));
  }, 60_000);
});
