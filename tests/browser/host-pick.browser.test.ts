// Pointing at the page in npm start's IDE page (CONTRACT section 21): the checks' toolbar of the
// page panel while recording, and "Select target in page" beside the command form's Target, each
// armed by a button and taken by a click on the page's picture, in real Chromium.
import { readFileSync } from "node:fs";
import { By } from "selenium-webdriver";
import type { WebDriver } from "selenium-webdriver";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startHost } from "../../apps/host/host.ts";
import { launchChromium } from "../../drivers/host/chromium.ts";
import { startExampleSite } from "../../drivers/host/site.ts";
import type { ExampleSite } from "../../drivers/host/site.ts";
import { browserPage } from "../../drivers/host/browserPage.ts";
import type { BrowserPage } from "../../drivers/host/browserPage.ts";
import { playAndWait } from "../support/runs.ts";

const SHOP = JSON.parse(readFileSync(new URL("../../examples/shop.side", import.meta.url), "utf8")) as unknown;
const WAIT = { timeout: 30_000, interval: 50 };
// What the checks read, put into the shop page: a note with text, a checked box, an empty box, and
// a button whose click the page counts (a pick's click must not reach it).
const EXTRA = `document.querySelector("#main").insertAdjacentHTML("beforeend",
  '<p id="note">Free   delivery <span style="display:none">hidden</span></p>' +
  '<label><input id="gift" type="checkbox" checked> gift</label>' +
  '<div id="blank" style="width:120px;height:24px;background:#eee"></div>' +
  '<button id="count" type="button" onclick="this.dataset.clicks = (Number(this.dataset.clicks || 0) + 1)">Count</button>');`;

let site: ExampleSite;
let hostPage: BrowserPage;
let host: Awaited<ReturnType<typeof startHost>>;
let driven: WebDriver;
let browser: Browser;
let ui: Page;
let image: Locator;
let testId: string;

const commands = () => host.ide.getProject().tests.find((t) => t.id === testId)!.commands;
const recorded = () => commands().map((c) => [c.command, c.target, c.value]);
const logs = () => host.ide.getSnapshot().logs.map((l) => l.message);

/** Where an element of the page under test is on its picture in the IDE page. */
async function onPicture(locator: By) {
  const rect = await driven.findElement(locator).getRect();
  const [sx, sy, w, h] = (await driven.executeScript("return [scrollX, scrollY, innerWidth, innerHeight]")) as number[];
  const box = (await image.boundingBox())!;
  return { x: ((rect.x - sx + rect.width / 2) / w!) * box.width, y: ((rect.y - sy + rect.height / 2) / h!) * box.height };
}

async function check(label: string, locator: By) {
  await ui.getByRole("toolbar", { name: "Checks" }).getByRole("button", { name: label, exact: true }).click();
  await vi.waitFor(() => expect(host.ide.getSnapshot().pick).not.toBeNull(), WAIT);
  await image.click({ position: await onPicture(locator) });
  await vi.waitFor(() => expect(host.ide.getSnapshot().pick).toBeNull(), WAIT);
}

beforeAll(async () => {
  site = await startExampleSite();
  hostPage = browserPage({ baseUrl: site.url });
  host = await startHost({ port: 0, tokenFile: null, project: SHOP, executor: hostPage });
  ({ driver: driven } = await hostPage.sideRuntime());
  await driven.get(`${site.url}/shop`);
  await driven.executeScript(EXTRA);
  host.ide.send({ type: "user.addTest", name: "checked by pointing" });
  testId = host.ide.getSnapshot().displayedTestId!;
  browser = await launchChromium();
  ui = await (await browser.newContext({ viewport: { width: 1400, height: 1250 } })).newPage();
  await ui.goto(host.urls.ui);
  await ui.waitForSelector('[data-testid="connection"]:text-is("connected")');
  await ui.getByRole("button", { name: "Record", exact: true }).click();
  await ui.waitForSelector('button:text-is("Stop recording")');
  image = ui.locator('[data-testid="page-image"]');
  await image.waitFor();
  await vi.waitFor(() => expect(recorded()[0]).toEqual(["open", "/shop", ""]), WAIT);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await hostPage?.close();
  await site?.close();
});

describe("checks recorded by pointing at the page panel's picture", () => {
  it("records each check for the element clicked, with its value, and the clicks reach neither the page nor the recording", async () => {
    await check("Assert text", By.id("note"));
    await check("Store text", By.id("note"));
    await check("Assert checked", By.id("gift"));
    await check("Assert element present", By.id("count"));
    await check("Wait for element visible", By.id("count"));
    await check("Assert title", By.id("note"));
    await ui.getByRole("button", { name: "Store value", exact: true }).click();
    await vi.waitFor(() => expect(host.ide.getSnapshot().pick).not.toBeNull(), WAIT);
    await image.click({ position: await onPicture(By.id("user")) });
    await vi.waitFor(() => expect(host.ide.getSnapshot().pick).toBeNull(), WAIT);
    await check("Assert value", By.id("user"));
    await vi.waitFor(() => expect(recorded().length).toBe(10), WAIT);
    expect(recorded().slice(2)).toEqual([
      ["assertText", "id=note", "Free delivery"],
      ["storeText", "id=note", "text1"],
      ["assertChecked", "id=gift", ""],
      ["assertElementPresent", "id=count", ""],
      ["waitForElementVisible", "id=count", "30000"],
      ["assertTitle", "Fixture shop", ""],
      ["storeValue", "id=user", "value1"],
      ["assertValue", "id=user", ""],
    ]);
    expect((commands()[2]!.targets as string[][] | undefined)?.[0]).toEqual(["id=note", "id"]);
    // The box stays checked and the button was never clicked: the picks' clicks stopped in the page.
    expect(await driven.executeScript("return [document.querySelector('#gift').checked, document.querySelector('#count').dataset.clicks ?? null]")).toEqual([true, null]);
    // The field picked for its value got no focus: nothing typed, no click recorded.
    expect(recorded().filter(([command]) => command === "click")).toEqual([]);
  }, 120_000);

  it("records an empty text with a warning when the element has no text", async () => {
    await check("Assert text", By.id("blank"));
    await vi.waitFor(() => expect(recorded().at(-1)).toEqual(["assertText", "id=blank", ""]), WAIT);
    expect(logs()).toContainEqual(expect.stringContaining("has no visible text: assertText was recorded with an empty text."));
  }, 60_000);

  it("gives a pick up on Esc: nothing recorded, and the next click on the picture reaches the page", async () => {
    const before = recorded().length;
    await ui.getByRole("button", { name: "Assert text", exact: true }).click();
    await vi.waitFor(() => expect(host.ide.getSnapshot().pick).not.toBeNull(), WAIT);
    await image.focus();
    await ui.keyboard.press("Escape");
    await vi.waitFor(() => expect(host.ide.getSnapshot().pick).toBeNull(), WAIT);
    await image.click({ position: await onPicture(By.id("count")) });
    await vi.waitFor(() => expect(recorded().at(-1)).toEqual(["click", "id=count", ""]), WAIT);
    expect(recorded().length).toBe(before + 1);
    expect(await driven.executeScript("return document.querySelector('#count').dataset.clicks")).toBe("1");
  }, 60_000);

  it("plays the recorded assertText green on the page it was recorded on, and red once the page's text changed", async () => {
    await ui.getByRole("button", { name: "Stop recording", exact: true }).click();
    await vi.waitFor(() => expect(host.ide.getSnapshot().recording).toBeNull(), WAIT);
    const assertText = commands().find((c) => c.command === "assertText" && c.target === "id=note")!;
    const passed = await playAndWait(host.ide, { type: "user.executeCommand", commandId: assertText.id });
    expect(passed.result).toBe("passed");
    await driven.executeScript("document.querySelector('#note').firstChild.textContent = 'Paid delivery '");
    const failed = await playAndWait(host.ide, { type: "user.executeCommand", commandId: assertText.id });
    expect(failed.result).toBe("failed");
    expect(failed.commands.find((c) => c.state === "failed")?.message ?? "").toContain("Paid delivery");
  }, 60_000);
});

describe("Select target in page", () => {
  it("sets the selected command's target and alternatives from the element clicked on the picture, and Undo takes it back", async () => {
    const count = commands().find((c) => c.command === "assertElementPresent")!;
    host.ide.send({ type: "user.selectCommand", commandId: count.id });
    await ui.getByRole("button", { name: "Select target in page", exact: true }).click();
    await vi.waitFor(() => expect(host.ide.getSnapshot().pick).toEqual({ kind: "target", commandId: count.id }), WAIT);
    const before = recorded().length;
    await image.click({ position: await onPicture(By.id("note")) });
    await vi.waitFor(() => expect(commands().find((c) => c.id === count.id)!.target).toBe("id=note"), WAIT);
    expect((commands().find((c) => c.id === count.id)!.targets as string[][] | undefined)?.[0]).toEqual(["id=note", "id"]);
    expect(recorded().length).toBe(before);
    host.ide.send({ type: "user.undo" });
    expect(commands().find((c) => c.id === count.id)!.target).toBe("id=count");
  }, 60_000);
});
