// The extension's trace shelf (CONTRACT section 17) on a real IndexedDB, in headless Chromium:
// the trace store (drivers/traces/traceStore.ts) over drivers/webextension/traceShelf.ts,
// bundled as the extension bundles it, in a page on 127.0.0.1. It keeps the last 20 of 25 runs
// (the files of those dropped go with them), at most the bound of pictures per run, removes a
// trace that is not kept, reads back only what a manifest names, and keeps a run cut off
// (its window closed) as it was.
import { describe, expect, it } from "vitest";
import { TRACE_DATABASE } from "../../drivers/webextension/traceShelf.ts";
import { bundleInPages } from "../support/browserPages.ts";
import { readTraceDatabase } from "../support/traceDatabase.ts";

const GLOBAL = "traceShelfUnderTest";

// A new page of a new context for each test: an empty IndexedDB.
const pageOf = bundleInPages(
  { "/": "<!doctype html><title>Traces</title><p>traces</p>" },
  "/",
  `export { indexedDbTraces } from "./drivers/webextension/traceShelf.ts";
   export { traceKeeper } from "./drivers/traces/traceStore.ts";`,
  { globalName: GLOBAL },
);

interface Played {
  ids: string[];
  results: Array<{ steps: Array<string | null>; dropped: number; where: string | null }>;
  kept: string[];
  /** Every file in the database, as "TRACEID/FILE". */
  files: string[];
  picture: { type: string; bytes: number } | null;
}

/** Plays `runs` tests of `commands` page commands into the store in the page, as the core and the traced executor tell it. */
async function play(runs: Array<{ commands: number; result: "passed" | "failed"; keep: boolean }>, maxScreenshots?: number): Promise<Played> {
  const played = await pageOf().evaluate(
    async ([name, runs, maxScreenshots]) => {
      const lib = (globalThis as unknown as Record<string, any>)[name];
      const kept = lib.indexedDbTraces();
      const store = lib.traceKeeper(kept.shelf, { maxScreenshots });
      const jpeg = `data:image/jpeg;base64,${btoa(String.fromCharCode(0xff, 0xd8, 0xff, 0xe0, 1, 2, 3))}`;
      const results = [];
      const ids: string[] = [];
      for (const [n, run] of runs.entries()) {
        const key = `k${n}`;
        const runId = `run-${n}`;
        store.testStarted({ key, runId, testId: "t", testName: `test ${n}`, suiteName: null, at: Date.now() });
        for (let i = 1; i <= run.commands; i++) {
          const event = { index: i, commandId: `c${i}`, command: "click", target: "id=add", value: "", message: null, healed: null, at: Date.now() };
          const failing = run.result === "failed" && i === run.commands;
          store.command(key, { ...event, phase: "start", state: "pending" });
          const image = Promise.resolve(jpeg);
          const failure = Promise.resolve({ details: { url: "http://127.0.0.1/shop", title: "Shop", html: "<p>gone</p>" }, consoleErrors: ["stock service down"] });
          store.attach(runId, failing ? { image, failure } : { image });
          store.command(key, { ...event, phase: "end", state: failing ? "failed" : "passed" });
        }
        store.testEnded(key, { result: run.result, keep: run.keep, at: Date.now() });
        const { manifest, dir } = await store.finished(runId, "t");
        ids.push(manifest.traceId);
        results.push({ steps: manifest.steps.map((s: { screenshot: string | null }) => s.screenshot), dropped: manifest.screenshotsDropped, where: dir });
      }
      const manifests = await kept.manifests();
      const last = ids[ids.length - 1];
      const picture = await kept.file(last, "00001.jpg");
      return {
        ids,
        results,
        kept: manifests.map((m: { traceId: string }) => m.traceId).sort(),
        picture: picture && { type: picture.type, bytes: picture.data.length },
      };
    },
    [GLOBAL, runs, maxScreenshots] as const,
  );
  const { files } = await pageOf().evaluate(readTraceDatabase, TRACE_DATABASE);
  return { ...played, files: Object.keys(files).sort() };
}

describe("the extension's traces in IndexedDB", () => {
  it("keeps the last 20 of 25 runs, and the files of the runs dropped go with them", async () => {
    const played = await play(Array.from({ length: 25 }, () => ({ commands: 2, result: "passed" as const, keep: true })));
    expect(played.kept).toEqual(played.ids.slice(5));
    expect(played.files).toHaveLength(40);
    expect(played.files.every((key) => played.ids.slice(5).includes(key.slice(0, key.indexOf("/"))))).toBe(true);
    expect(played.results[24]).toEqual({ steps: ["00001.jpg", "00002.jpg"], dropped: 0, where: played.ids[24] });
    expect(played.picture).toEqual({ type: "image/jpeg", bytes: 7 });
  });

  it("keeps at most the bound of pictures in a run, a failure's always, with its DOM", async () => {
    const played = await play([{ commands: 6, result: "failed", keep: true }], 3);
    expect(played.results[0].steps).toEqual(["00001.jpg", "00002.jpg", "00003.jpg", null, null, "00006.jpg"]);
    expect(played.results[0].dropped).toBe(2);
    const id = played.ids[0];
    expect(played.files).toEqual(["00001.jpg", "00002.jpg", "00003.jpg", "00006.html", "00006.jpg"].map((file) => `${id}/${file}`));
  });

  it("removes the trace of a passing test under retain-on-failure and keeps the failing one", async () => {
    const played = await play([
      { commands: 2, result: "passed", keep: false },
      { commands: 2, result: "failed", keep: true },
    ]);
    expect(played.results[0].where).toBeNull();
    expect(played.kept).toEqual([played.ids[1]]);
    expect(played.files.every((key) => key.startsWith(`${played.ids[1]}/`))).toBe(true);
  });

  it("keeps the trace of a test whose window closed mid-run as it was, read back by the next window with no result", async () => {
    const page = pageOf();
    const read = await page.evaluate(async (name) => {
      const lib = (globalThis as unknown as Record<string, any>)[name];
      const store = lib.traceKeeper(lib.indexedDbTraces().shelf);
      const jpeg = `data:image/jpeg;base64,${btoa(String.fromCharCode(0xff, 0xd8, 0xff, 0xe0, 1, 2, 3))}`;
      store.testStarted({ key: "k", runId: "run", testId: "t", testName: "cut off", suiteName: null, at: Date.now() });
      for (let i = 1; i <= 2; i++) {
        const event = { index: i, commandId: `c${i}`, command: "click", target: "id=add", value: "", message: null, healed: null, at: Date.now() };
        store.command("k", { ...event, phase: "start", state: "pending" });
        store.attach("run", { image: Promise.resolve(jpeg) });
        store.command("k", { ...event, phase: "end", state: "passed" });
      }
      // The window closes here (no testEnded); the next one opens the database afresh.
      const next = lib.indexedDbTraces();
      const deadline = Date.now() + 10_000;
      for (;;) {
        const [manifest] = await next.manifests();
        if (manifest?.steps.every((s: { screenshot: string | null }) => s.screenshot !== null) && manifest.steps.length === 2) return manifest;
        if (Date.now() > deadline) return manifest ?? null;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }, GLOBAL);
    expect(read).toMatchObject({ testName: "cut off", result: null, endedAt: null });
    expect(read.steps.map((s: { state: string; screenshot: string }) => [s.state, s.screenshot])).toEqual([
      ["passed", "00001.jpg"],
      ["passed", "00002.jpg"],
    ]);
  });
});
