// `npm run play -- --report DIR` written from traces whose files another IDE on the same data
// folder may have pruned: the report is still written, with the pictures that are there copied
// and a step whose picture is gone left without one (and JUnit not told of a copy).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TestEnded } from "../../index.ts";
import { writeHtmlReport } from "../../apps/play/htmlReport.ts";
import type { TracedTest } from "../../apps/play/htmlReport.ts";
import type { TraceManifest, TraceStep } from "../../services/traces/index.ts";

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);

const step = (index: number, state: TraceStep["state"]): TraceStep => ({
  index,
  commandId: `c${index}`,
  command: index === 1 ? "open" : "assertTitle",
  target: index === 1 ? "/shop" : "Nope",
  value: "",
  startedAt: index,
  endedAt: index + 1,
  state,
  message: state === "failed" ? "Actual value 'Shop' did not match 'Nope'" : null,
  locator: null,
  healed: null,
  screenshot: `0000${index}.jpg`,
  failure: null,
});

function failedTest(tracesDir: string, traceId: string, name: string): TracedTest {
  const manifest: TraceManifest = {
    format: "ide-core.trace",
    version: 1,
    traceId,
    runId: `run-${name}`,
    testId: name,
    testName: name,
    suiteName: null,
    startedAt: 0,
    endedAt: 3,
    result: "failed",
    steps: [step(1, "passed"), step(2, "failed")],
    screenshotsDropped: 0,
  };
  const ended: TestEnded = {
    runId: manifest.runId,
    testId: name,
    testName: name,
    suiteName: null,
    result: "failed",
    tryNo: 1,
    durationMs: 3,
    failure: { commandId: "c2", index: 2, command: "assertTitle", target: "Nope", value: "", state: "failed", message: "Actual value 'Shop' did not match 'Nope'" },
    healed: [],
  };
  return { ended, failedTries: [], verdict: "failed", screenshot: null, trace: { manifest, dir: join(tracesDir, traceId) }, tries: [] };
}

describe("the HTML report", () => {
  it("is written when a trace's picture is gone from the traces folder, copying the pictures that are there", async () => {
    const root = mkdtempSync(join(tmpdir(), "ide-core-html-report-"));
    const traces = join(root, "traces");
    const whole = failedTest(traces, "20261129-120000-000-0001", "whole");
    const pruned = failedTest(traces, "20261129-120001-000-0002", "pruned");
    for (const name of ["00001.jpg", "00002.jpg"]) {
      mkdirSync(whole.trace!.dir!, { recursive: true });
      writeFileSync(join(whole.trace!.dir!, name), JPEG);
    }
    // The second trace's folder was pruned before the report copied it.
    const report = join(root, "report");
    const { index, copies } = await writeHtmlReport(report, "Shop", [{ name: "Shop", tests: [whole, pruned] }], 10);
    expect(readFileSync(index, "utf8")).toContain("pruned");
    expect(readdirSync(join(report, "traces", whole.trace!.manifest.traceId)).sort()).toEqual(["00001.jpg", "00002.jpg"]);
    expect([...copies.keys()].sort()).toEqual([join(whole.trace!.dir!, "00001.jpg"), join(whole.trace!.dir!, "00002.jpg")]);
    const html = readFileSync(index, "utf8");
    expect(html).toContain(`traces/${whole.trace!.manifest.traceId}/00002.jpg`);
    expect(html).not.toContain(`traces/${pruned.trace!.manifest.traceId}/00002.jpg`);
  });
});
