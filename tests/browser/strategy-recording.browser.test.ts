// A declared locator strategy records (CONTRACT section 23): the host's page panel tells the
// recorder in the page the project's declared strategies with the recording settings, and a click
// in real headless Chromium, driven by WebDriver, on an element carrying `data-qa` records
// `qa=VALUE` right after the test ids when the project declares `qa` with that attribute; placed
// first in locatorOrder, it is the recorded target.
import { By } from "selenium-webdriver";
import type { WebDriver } from "selenium-webdriver";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createIde } from "../../index.ts";
import type { Ide } from "../../index.ts";
import { pagePanelRecorder } from "../../drivers/host/recording.ts";
import { browserPage } from "../../drivers/host/browserPage.ts";
import type { BrowserPage } from "../../drivers/host/browserPage.ts";
import { servePages } from "../support/browserPages.ts";

const SHOP = `<!doctype html>
<html><head><title>Shop</title></head>
<body>
  <p><button type="button" data-qa="save-button" id="save">Save</button></p>
  <p><button type="button" data-qa="add" class="add">Add</button> <button type="button" data-qa="add" class="add">Add again</button></p>
</body></html>`;

const WAIT = { timeout: 30_000, interval: 50 };
const QA = { name: "qa", css: '[data-qa="{value}"]', attribute: "data-qa" };

let site: Awaited<ReturnType<typeof servePages>>;
let page: BrowserPage;
let driver: WebDriver;
let ide: Ide;
let panel: ReturnType<typeof pagePanelRecorder>;

beforeAll(async () => {
  site = await servePages({ "/shop": SHOP });
  page = browserPage({ baseUrl: site.origin });
  ({ driver } = await page.sideRuntime());
  await driver.get(`${site.origin}/shop`);
  ide = createIde({
    project: { id: "p", name: "strategies", url: site.origin, tests: [{ id: "t", name: "saving", commands: [] }], locatorStrategies: [QA] },
  });
  panel = pagePanelRecorder(
    async () => driver,
    (report) => void ide.record(report),
    () => ({ project: site.origin }),
    {},
    () => ide.getSnapshot().recordingSettings,
  );
  ide.send({ type: "user.startRecording" });
  await panel.recordingStarted();
}, 60_000);
afterAll(async () => {
  ide?.stop();
  await page?.close();
  await site?.close();
});

type Recorded = { command: string; target: string; targets?: Array<[string, string?]> };
const commands = () => ide.getProject().tests[0].commands as Recorded[];

/** Clicks the element's centre on the page as the page panel does, and waits for its command. */
async function clickOn(css: string): Promise<Recorded> {
  const rect = await driver.findElement(By.css(css)).getRect();
  const before = commands().filter((c) => c.command === "click").length;
  await panel.input({ kind: "click", x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 });
  await vi.waitFor(() => expect(commands().filter((c) => c.command === "click").length).toBe(before + 1), WAIT);
  return commands().filter((c) => c.command === "click").at(-1)!;
}

describe("recording with a declared locator strategy", () => {
  it("records qa=VALUE right after the test ids for an element carrying data-qa", async () => {
    const click = await clickOn("#save");
    expect(click.targets?.slice(0, 3)).toEqual([
      ['css=[data-qa="save-button"]', "css:testId"],
      ["qa=save-button", "qa"],
      ["id=save", "id"],
    ]);
    expect(click.target).toBe('css=[data-qa="save-button"]');
  });

  it("gives no qa= pair where another element carries the same value first", async () => {
    const click = await clickOn("button.add:nth-of-type(2)");
    expect((click.targets ?? []).map(([locator]) => locator)).not.toContain("qa=add");
    const first = await clickOn("button.add:nth-of-type(1)");
    expect(first.targets?.[1]).toEqual(["qa=add", "qa"]);
  });

  it("records qa=VALUE as the target once the project's locatorOrder places qa first", async () => {
    ide.send({ type: "user.changeSettings", locatorOrder: ["qa"] });
    expect(ide.getSnapshot().recordingSettings.locatorOrder[0]).toBe("qa");
    const click = await clickOn("#save");
    expect(click.target).toBe("qa=save-button");
    expect(click.targets?.[0]).toEqual(["qa=save-button", "qa"]);
  });
});
