// Pointing at the page in the browser extension (issue 34), through the built extension in
// headless Chromium, two figures:
//   pick:         the IDE window's core is told "Assert text" (user.pickCheck, as a button of the
//                 window does), the pick is armed in the tab (its outline follows the pointer),
//                 and the time runs from the trusted click in the tab (playwright's mouse, over
//                 DevTools) to the view whose displayed test ends with that assertText and its value.
//   context menu: the element right-clicked in the tab, then the menu's "Assert text" clicked as
//                 Chrome does (the window's onClicked handler, called from Node through the
//                 window page), to the same view.
// Both end at a binding of the window page that Node waits for (the record benchmark's
// watcher). Target: p95 ≤ 100 ms. Self-checking: every pick and every menu click recorded an
// assertText of the heading's text.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { withTimeout } from "../services/timeout.ts";
import { launchWithExtensions } from "../drivers/host/chromium.ts";
import { buildExtension } from "../apps/extension/build.ts";
import { IDE_EXTENSION_ID } from "../drivers/webextension/identity.ts";
import { makePluginExtension, openIdeWindow, profileDir, serveTestSite, workerOf } from "../tests/support/extensions.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtMs, heading, now, printTable, quantile } from "./support.ts";

const PICKS = 30;
const WARMUP = 3;
const TARGET_P95_MS = 100;
const LIMIT_MS = 10_000;

const stats = (samples: number[]) => {
  const values = Float64Array.from(samples);
  return { p50: quantile(values, values.length, 0.5), p95: quantile(values, values.length, 0.95) };
};

/** In the IDE window: tell __benchRecorded the displayed test's last command (command and value) whenever the test grows. */
const WATCH_RECORDED = `(() => {
  const core = globalThis.ideCore;
  let last = -1;
  core.subscribe((view) => {
    const test = core.getProject().tests.find((t) => t.id === view.displayedTestId);
    const commands = test ? test.commands : [];
    if (commands.length === last) return;
    last = commands.length;
    const end = commands[commands.length - 1];
    globalThis.__benchRecorded(commands.length, end ? end.command + " " + end.target + " " + end.value : "");
  });
})()`;

/** Whether the pick's outline shows in the tab (it follows the pointer once armed). */
async function armed(tab: Page, point: { x: number; y: number }): Promise<boolean> {
  await tab.mouse.move(point.x + 1, point.y);
  await tab.mouse.move(point.x, point.y);
  return tab.evaluate(() => [...document.querySelectorAll("div[aria-hidden=true]")].some((d) => (d as HTMLElement).style.position === "fixed" && (d as HTMLElement).style.display === "block"));
}

export const extensionPickBenchmark: Benchmark = {
  name: "extension-pick",
  description: "pointing at the page in the browser extension: a pick's click, and a context-menu check, to the check in the window's view",
  async run(): Promise<SummaryLine[]> {
    heading(
      "extension-pick: checks picked in the browser extension",
      `${PICKS} "Assert text" picks by a click in the tab under test, and ${PICKS} chosen from the tab's context menu,\nto the recorded check in the IDE window's view.`,
    );
    console.log("  building the extension…");
    const built = await buildExtension({ outDir: join(mkdtempSync(join(tmpdir(), "ide-core-bench-")), "extension") });
    const site = await serveTestSite();
    const opener = makePluginExtension("bench-pick-opener");
    const context = await launchWithExtensions(profileDir(), [built.outDir, opener.dir]);
    try {
      const openerWorker = await workerOf(context, opener.id);
      await workerOf(context, IDE_EXTENSION_ID);
      const tab = context.pages()[0] ?? (await context.newPage());
      await tab.goto(`${site.origin}/second`);
      const window = await openIdeWindow(context, openerWorker);
      await window.getByRole("button", { name: "New test" }).click();
      await window.locator('[data-testid="test-name"]').fill("picked by the benchmark");
      await window.locator('[data-testid="test-name"]').press("Enter");

      let recorded = 0;
      let lastCommand = "";
      let waiter: ((length: number) => void) | null = null;
      await window.exposeBinding("__benchRecorded", (_source, length: number, command: string) => {
        recorded = length;
        lastCommand = command;
        waiter?.(length);
      });
      await window.evaluate(WATCH_RECORDED);
      await tab.bringToFront();
      await window.getByRole("button", { name: "Record", exact: true }).click();
      const until = now() + LIMIT_MS;
      while (recorded < 2) {
        check(now() < until, "the recording started on the tab (open, setWindowSize)");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const element = tab.locator("#heading");
      const text = (await element.textContent())!.trim();
      const box = (await element.boundingBox())!;
      const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      const expected = `assertText id=heading ${text}`;
      const grown = () => {
        const count = recorded;
        return new Promise<void>((resolve) => (waiter = (length) => length > count && resolve()));
      };

      const picks: number[] = [];
      for (let i = -WARMUP; i < PICKS; i++) {
        await window.evaluate(`globalThis.ideCore.send({ type: "user.pickCheck", command: "assertText" })`);
        const armedBy = now() + LIMIT_MS;
        while (!(await armed(tab, point))) check(now() < armedBy, `the pick ${i + WARMUP + 1} was armed in the tab`);
        const seen = grown();
        const t0 = now();
        await tab.mouse.click(point.x, point.y);
        await withTimeout(seen, LIMIT_MS, `pick ${i + WARMUP + 1} in the view`);
        if (i >= 0) picks.push(now() - t0);
        check(lastCommand === expected, `pick ${i + WARMUP + 1} recorded "${expected}" (it recorded "${lastCommand}")`);
      }

      // The tab as Chrome gives it to the menu's click, read once: the menu's click names it.
      await window.evaluate(`(async () => {
        globalThis.__benchTab = (await chrome.tabs.query({})).find((t) => t.url && t.url.startsWith(${JSON.stringify(site.origin)}));
      })()`);
      const menu: number[] = [];
      for (let i = -WARMUP; i < PICKS; i++) {
        await tab.mouse.click(point.x, point.y, { button: "right" });
        const seen = grown();
        const t0 = now();
        await window.evaluate(`globalThis.ideCoreContextMenu.clicked({ menuItemId: "ide-core-check-assertText", frameId: 0, editable: false }, globalThis.__benchTab)`);
        await withTimeout(seen, LIMIT_MS, `context-menu check ${i + WARMUP + 1} in the view`);
        if (i >= 0) menu.push(now() - t0);
        check(lastCommand === expected, `context-menu check ${i + WARMUP + 1} recorded "${expected}" (it recorded "${lastCommand}")`);
      }
      waiter = null;
      await window.getByRole("button", { name: "Stop recording", exact: true }).click();

      const pick = stats(picks);
      const fromMenu = stats(menu);
      printTable(
        ["figure", "p50", "p95"],
        [
          ["click in the tab (armed pick) → check in the window's view", fmtMs(pick.p50), fmtMs(pick.p95)],
          ["context menu's Assert text → check in the window's view", fmtMs(fromMenu.p50), fmtMs(fromMenu.p95)],
        ],
      );
      return [
        { benchmark: "extension-pick", figure: "extension: pick's click to check in the view", value: `p95 ${fmtMs(pick.p95)}`, ratio: "", target: `≤ ${TARGET_P95_MS} ms p95`, met: pick.p95 <= TARGET_P95_MS },
        // The menu's item: no target of its own (issue 34's is the pick's click); told for comparison.
        { benchmark: "extension-pick", figure: "extension: context menu to check in the view", value: `p95 ${fmtMs(fromMenu.p95)}`, ratio: "", target: "", met: null },
      ];
    } finally {
      await context.close();
      await site.close();
    }
  },
};
