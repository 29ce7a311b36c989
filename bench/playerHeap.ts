// The one player's memory over a long run (issue 26): 10,000 page commands played by the
// host's page with the one player (drivers/host/devtoolsPlayer.ts) on the example site, with no
// IDE around it (the run's own per-command view grows with the run by design). The heap
// after GC once 1,000 commands are played against the heap after 10,000: target ≤ 1.2× (flat:
// nothing kept per command in the player, its DevTools session or its listeners).
// Self-checking: every command passed and every one but open was played in the page.
import { startExampleSite } from "../drivers/host/site.ts";
import { browserPage } from "../drivers/host/browserPage.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtMs, fmtNum, fmtRatio, heading, heapAfterGc, now, printTable } from "./support.ts";

const TOTAL = 10_000;
const EARLY = 1_000;
const TARGET = 1.2;

const ROUND = [
  { command: "type", target: "id=user", value: "someone" },
  { command: "click", target: "linkText=Add to cart", value: "" },
  { command: "storeText", target: "css=.cart-count", value: "count" },
  { command: "assertElementPresent", target: "css=.cart-count", value: "" },
];

export const playerHeapBenchmark: Benchmark = {
  name: "player-heap",
  description: "the one player's heap over 10,000 page commands (flat)",
  async run(): Promise<SummaryLine[]> {
    heading("player-heap", `${TOTAL.toLocaleString("en")} page commands (type, click, storeText, assertElementPresent) played by the host's one player\non the example site, no IDE around it; the heap after GC at ${EARLY.toLocaleString("en")} and at ${TOTAL.toLocaleString("en")} commands.`);
    const site = await startExampleSite();
    const page = browserPage({ baseUrl: site.url, implicitWaitMs: 2_000 });
    const signal = new AbortController().signal;
    let id = 0;
    const play = async (command: string, target: string, value: string) => {
      const outcome = await page.execute({ command: { id: `c${++id}`, command, target, value }, variables: {}, baseUrl: site.url, runId: "heap" }, signal);
      check(outcome.state === "passed", `${command} ${target} passed (${JSON.stringify(outcome)})`);
    };
    try {
      await play("open", "/shop", "");
      let early = 0;
      let earlyAt = 0;
      const t0 = now();
      for (let i = 1; i <= TOTAL; i++) {
        const step = ROUND[i % ROUND.length];
        await play(step.command, step.target, step.value);
        if (i % 500 === 0) await play("open", "/shop", ""); // the cart starts again, and documents come and go
        if (i === EARLY) {
          early = heapAfterGc();
          earlyAt = now();
        }
      }
      const late = heapAfterGc();
      const elapsed = now() - t0;
      check(page.playedInPage() === TOTAL, `the player played every command but open (${page.playedInPage()} of ${TOTAL})`);
      const ratio = late / early;
      printTable(
        ["figure", "value", "ratio"],
        [
          [`heap after ${EARLY.toLocaleString("en")} commands`, `${fmtNum(early / 1e6)} MB`, ""],
          [`heap after ${TOTAL.toLocaleString("en")} commands`, `${fmtNum(late / 1e6)} MB`, fmtRatio(ratio)],
          ["time a command (after the first 1,000)", fmtMs((elapsed - (earlyAt - t0)) / (TOTAL - EARLY)), ""],
        ],
      );
      return [{ benchmark: "player-heap", figure: `heap over ${TOTAL.toLocaleString("en")} commands`, value: `${fmtNum(late / 1e6)} MB`, ratio: `${fmtRatio(ratio)} after ${EARLY.toLocaleString("en")}`, target: `≤ ${TARGET}×`, met: ratio <= TARGET }];
    } finally {
      await page.close();
      await site.close();
    }
  },
};
