// Chrome Recorder's flows (CONTRACT section 23): importing a 1,000-step flow as a test and
// exporting it again, against @puppeteer/replay's own parse and stringify of the same flow
// (its JSON stringify extension, which writes the same format; its default, a Puppeteer
// script, is shown beside it).
import { JSONStringifyExtension, parse, stringify, stripSourceMap } from "@puppeteer/replay";
import { flowToProject, testToFlow } from "../services/chromeRecorder/index.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtMs, fmtRatio, heading, heapAfterGc, median, medianTimeAsync, now, printTable, verdict } from "./support.ts";

const STEPS = 1000;
const REPS = 15;
const TARGET = 1.2;

/** A flow as the Recorder writes one: navigations, clicks with five selector kinds, changes, keys and waits. */
function recordedFlow() {
  const steps: Record<string, unknown>[] = [
    { type: "setViewport", width: 1280, height: 720, deviceScaleFactor: 1, isMobile: false, hasTouch: false, isLandscape: false },
  ];
  for (let i = 0; steps.length < STEPS; i++) {
    const selectors = [[`aria/Item ${i}`], [`#item-${i}`], [`xpath///*[@id="item-${i}"]`], [`pierce/#item-${i}`], [`text/Item ${i}`]];
    const kind = i % 6;
    if (kind === 0) steps.push({ type: "navigate", url: `http://127.0.0.1:8080/page/${i}`, assertedEvents: [{ type: "navigation", url: `http://127.0.0.1:8080/page/${i}`, title: `Page ${i}` }] });
    else if (kind === 1) steps.push({ type: "click", target: "main", selectors, offsetX: 12, offsetY: 8 });
    else if (kind === 2) steps.push({ type: "change", target: "main", selectors, value: `value ${i}` });
    else if (kind === 3) steps.push({ type: "keyDown", target: "main", key: "Enter" }, { type: "keyUp", target: "main", key: "Enter" });
    else if (kind === 4) steps.push({ type: "waitForElement", selectors: [["my-app", `#item-${i}`]] });
    else steps.push({ type: "hover", target: "main", selectors, frame: [0] });
  }
  return { title: "Large flow", steps: steps.slice(0, STEPS) };
}

const timed = (what: () => Promise<void> | void) => medianTimeAsync(what, REPS);

async function run(): Promise<SummaryLine[]> {
  heading(
    "chrome-recorder: a 1,000-step flow in and out",
    `flowToProject then testToFlow of a ${STEPS}-step flow, against @puppeteer/replay's parse then stringify (JSON) of it, timed in turns (theirs, ours) after gc(); the ratio is the median of the ${REPS} turns' ratios, so a change in the machine's load between turns does not count.`,
  );
  const data = recordedFlow();
  const extension = new JSONStringifyExtension();
  let theirText = "";
  let ourText = "";
  const theirs = async () => {
    theirText = await stringify(parse(data), { extension });
  };
  const ours = () => {
    const imported = flowToProject(data, "large.json");
    if (!imported.ok) throw new Error(`Benchmark self-check failed: ${imported.problem}`);
    const exported = testToFlow(imported.project, imported.project.tests[0].id);
    if (!exported.ok) throw new Error(`Benchmark self-check failed: ${exported.problem}`);
    ourText = exported.text;
  };
  const scriptOnly = async () => {
    await stringify(parse(data));
  };
  await theirs();
  ours();
  const turns: Array<{ theirMs: number; ourMs: number }> = [];
  for (let rep = 0; rep < REPS; rep++) {
    heapAfterGc();
    let t0 = now();
    await theirs();
    const theirMs = now() - t0;
    heapAfterGc();
    t0 = now();
    ours();
    turns.push({ theirMs, ourMs: now() - t0 });
  }
  const theirMs = median(turns.map((t) => t.theirMs));
  const ourMs = median(turns.map((t) => t.ourMs));
  const ratio = median(turns.map((t) => t.ourMs / t.theirMs));
  const scriptMs = await timed(scriptOnly);
  const importMs = await timed(() => void flowToProject(data, "large.json"));
  // Export of the project as a .side file gives it back: new objects, of which nothing import
  // learnt is remembered, so every kept step is checked and matched again.
  const imported = flowToProject(data, "large.json");
  if (!imported.ok) throw new Error(`Benchmark self-check failed: ${imported.problem}`);
  const reread = JSON.parse(JSON.stringify(imported.project)) as typeof imported.project;
  const coldMs = await timed(() => void testToFlow(reread, reread.tests[0].id));

  check(JSON.stringify(parse(JSON.parse(ourText))) === JSON.stringify(parse(data)), "the exported flow is the imported one, step for step");
  check(JSON.stringify(JSON.parse(stripSourceMap(theirText))) === JSON.stringify(parse(data)), "their JSON is the flow");
  printTable(
    ["figure", "time", "÷ theirs"],
    [
      ["@puppeteer/replay parse + stringify (JSON), baseline", fmtMs(theirMs), fmtRatio(1)],
      ["flowToProject + testToFlow (ratio: median of the turns')", fmtMs(ourMs), fmtRatio(ratio)],
      ["  of which: flowToProject alone", fmtMs(importMs), fmtRatio(importMs / theirMs)],
      ["testToFlow of the project read back from .side text (informative)", fmtMs(coldMs), fmtRatio(coldMs / theirMs)],
      ["@puppeteer/replay parse + stringify (Puppeteer script, informative)", fmtMs(scriptMs), fmtRatio(scriptMs / theirMs)],
    ],
  );
  console.log(`\n  Self-checks passed: the flow comes back step for step (${STEPS} steps). Target: ≤ ${TARGET}× theirs: ${verdict(ratio <= TARGET)}.`);
  return [{ benchmark: "chrome-recorder", figure: `import + export of a ${STEPS}-step flow`, value: fmtMs(ourMs), ratio: `${fmtRatio(ratio)} theirs`, target: `≤ ${TARGET}×`, met: ratio <= TARGET }];
}

export const chromeRecorderBenchmark: Benchmark = {
  name: "chrome-recorder",
  description: "importing and exporting a 1,000-step Chrome Recorder flow against @puppeteer/replay's parse + stringify",
  run,
};
