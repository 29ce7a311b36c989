// A pick in the page (drivers/recorder/pick.ts) beside the recorder, in real headless Chromium:
// Playwright's mouse and keys are trusted input, as a person's.
import { describe, expect, it } from "vitest";
import { recorderInPages } from "../support/recorderPage.ts";

const PAGE = `<!doctype html><title>Pick page</title>
<h1 id="heading">Hello   <span>there</span><span style="display:none"> hidden</span></h1>
<button id="go" onclick="document.querySelector('#out').textContent = 'clicked'">Go</button>
<input id="name" value="Ada">
<input id="agree" type="checkbox" checked>
<div id="empty" style="width:80px;height:20px"></div>
<p id="out"></p>
<script>window.addEventListener("mousedown", () => (document.querySelector("#out").dataset.down = "yes"), true);</script>`;

const recorder = recorderInPages({ "/pick": PAGE }, "/pick", {
  extraModule: `import { armPick } from "./drivers/recorder/pick.ts";
    const told = (globalThis.__told = []);
    globalThis.__arm = () => (globalThis.__disarm = armPick(window, (report) => told.push(report)));`,
});
const page = () => recorder.page();
const arm = () => page().evaluate(() => (globalThis as unknown as { __arm(): void }).__arm());
const told = () => page().evaluate(() => (globalThis as unknown as { __told: Array<Record<string, unknown>> }).__told);

describe("a pick in the page", () => {
  it("takes the next click's element with the recorder's locators, its text and value, and the click reaches neither the page nor the recorder", async () => {
    await arm();
    await page().click("#go");
    await page().waitForFunction(() => (globalThis as unknown as { __told: unknown[] }).__told.length > 0);
    const [report] = await told();
    expect(report).toMatchObject({ pick: "picked", element: { target: "id=go", text: "Go", tag: "button", title: "Pick page", checked: null } });
    expect((report!.element as { targets: string[][] }).targets[0]).toEqual(["id=go", "id"]);
    expect((report!.element as { fingerprint: unknown }).fingerprint).toBeTruthy();
    expect(await page().textContent("#out")).toBe("");
    expect(await page().getAttribute("#out", "data-down")).toBeNull();
    expect(await recorder.recorded()).toEqual([]);
  });

  it("reads text as WebDriver does, a field's value and a checkbox's state", async () => {
    for (const selector of ["#heading", "#name", "#agree"]) {
      await arm();
      await page().click(selector);
    }
    await page().waitForFunction(() => (globalThis as unknown as { __told: unknown[] }).__told.length === 3);
    const elements = (await told()).map((r) => r.element as Record<string, unknown>);
    expect(elements.map((e) => [e.target, e.text, e.value, e.checked])).toEqual([
      ["id=heading", "Hello there", null, null],
      ["id=name", "", "Ada", null],
      ["id=agree", "", "on", true],
    ]);
  });

  it("outlines the element under the pointer while armed, and leaves nothing in the page once it took the click", async () => {
    const overlays = () => page().evaluate(() => [...document.querySelectorAll("div[aria-hidden=true]")].length);
    await arm();
    await page().hover("#go");
    const box = await page().evaluate(() => {
      const overlay = [...document.querySelectorAll<HTMLElement>("div[aria-hidden=true]")][0]!;
      const go = document.querySelector("#go")!.getBoundingClientRect();
      const drawn = overlay.getBoundingClientRect();
      return { shown: overlay.style.display, sameLeft: Math.abs(drawn.left - go.left) < 1, sameWidth: Math.abs(drawn.width - go.width) < 1 };
    });
    expect(box).toEqual({ shown: "block", sameLeft: true, sameWidth: true });
    await page().click("#go");
    expect(await overlays()).toBe(0);
  });

  it("cancels on Esc: nothing taken, the next click reaches the page and is recorded", async () => {
    await arm();
    await page().keyboard.press("Escape");
    await page().click("#go");
    expect(await told()).toEqual([{ pick: "cancelled" }]);
    expect(await page().textContent("#out")).toBe("clicked");
    expect((await recorder.recorded()).map((a) => `${a.command} | ${a.target}`)).toEqual(["click | id=go"]);
  });

  it("tells nothing once disarmed before the click, which then goes to the page as usual", async () => {
    await arm();
    await page().evaluate(() => (globalThis as unknown as { __disarm(): void }).__disarm());
    await page().click("#go");
    expect(await told()).toEqual([]);
    expect(await page().textContent("#out")).toBe("clicked");
  });
});
