// The recorder (drivers/recorder/recorder.ts) in real headless Chromium, bundled for the browser
// as the content script bundles it. Playwright's mouse and keyboard go through DevTools input,
// so the page gets trusted events, as from a person; what the page's own scripts dispatch is
// not trusted and must not be recorded.
import { describe, expect, it } from "vitest";
import type { RecordedAction, RecorderReport } from "../../drivers/recorder/recorder.ts";
import { bundleInPages } from "../support/browserPages.ts";

const FORM = `<!doctype html><html><head><title>Form</title></head><body>
  <form id="search" onsubmit="event.preventDefault()">
    <input id="q" name="q">
    <textarea id="notes"></textarea>
    <select id="size"><option>Small</option><option>Medium</option><option>Large</option></select>
    <select id="toppings" multiple><option>Cheese</option><option>Ham</option></select>
    <button id="go" type="button">Go</button>
  </form>
  <div id="editor" contenteditable="true">Hello</div>
  <p id="para">Double me</p>
  <iframe id="inner" src="/frame"></iframe>
  <iframe id="twice" src="/bare"></iframe>
  <span id="twice"></span>
  <button id="forged" type="button">Forged</button>
  <label id="agree-label" for="agree">Agree</label> <input type="checkbox" id="agree">
  <button id="one" type="button">One</button> <button id="two" type="button">Two</button>
</body></html>`;
const FRAME = `<!doctype html><html><body><button id="inside">Inside</button></body></html>`;

// The recorder in the page and in each of its frames, once they have loaded.
const page = bundleInPages(
  { "/": FORM, "/frame": FRAME, "/bare": FRAME },
  "/",
  `import { attachRecorder } from "./drivers/recorder/recorder.ts";
   const seen = (globalThis.__recorded = []);
   attachRecorder(window, (action) => seen.push(action));`,
  { frames: [/\/frame$/, /\/bare$/] },
);

async function reports(): Promise<RecorderReport[]> {
  await page().waitForTimeout(50);
  const all: RecorderReport[] = [];
  for (const f of page().frames()) all.push(...(await f.evaluate(() => (globalThis as unknown as { __recorded: RecorderReport[] }).__recorded)));
  return all;
}

async function recorded(): Promise<string[]> {
  const commands = (await reports()).filter((a): a is RecordedAction => !("pending" in a));
  return commands.map((a) => `${a.command} | ${a.target} | ${a.value} | ${JSON.stringify(a.frame)}`);
}

/** The typing the recorder told as pending, in order: the value, or null once nothing is pending. */
async function pending(): Promise<Array<string | null>> {
  return (await reports()).flatMap((a) => ("pending" in a ? [a.field === null ? null : `${a.field.target} = ${a.field.value}`] : []));
}

describe("the recorder in Chromium", () => {
  it("records clicks and typing as click and type, with the first locator as target", async () => {
    await page().click("#q");
    await page().keyboard.type("cheese");
    await page().click("#go");
    expect(await recorded()).toEqual(["click | id=q |  | []", "type | id=q | cheese | []", "click | id=go |  | []"]);
  });

  it("tells the typing in the focused field as pending until its change comes, and nothing pending after it", async () => {
    await page().click("#q");
    await page().keyboard.type("ab");
    expect(await recorded()).toEqual(["click | id=q |  | []"]);
    expect(await pending()).toEqual(["id=q = a", "id=q = ab"]);
    await page().keyboard.press("Backspace");
    await page().keyboard.press("Backspace");
    expect((await pending()).at(-1)).toBeNull(); // back to the value it had: nothing to record
    await page().keyboard.type("c");
    await page().click("#go");
    expect(await recorded()).toEqual(["click | id=q |  | []", "type | id=q | c | []", "click | id=go |  | []"]);
    expect(await pending()).toEqual(["id=q = a", "id=q = ab", "id=q = a", null, "id=q = c", null]);
  });

  it("records Enter in a field as type then sendKeys ${KEY_ENTER}, and no click the form makes", async () => {
    await page().click("#q");
    await page().keyboard.type("ham");
    await page().keyboard.press("Enter");
    expect(await recorded()).toEqual(["click | id=q |  | []", "type | id=q | ham | []", "sendKeys | id=q | ${KEY_ENTER} | []"]);
  });

  it("records a textarea's value when it changes", async () => {
    await page().click("#notes");
    await page().keyboard.type("two\nlines");
    await page().click("#go");
    expect((await recorded())[1]).toBe("type | id=notes | two\nlines | []");
  });

  it("records a choice in a select as select label=", async () => {
    await page().focus("#size");
    await page().keyboard.press("ArrowDown");
    expect(await recorded()).toContain("select | id=size | label=Medium | []");
  });

  it("records addSelection and removeSelection in a multiple select", async () => {
    const box = (await page().locator("#toppings option").nth(1).boundingBox())!;
    await page().mouse.click(box.x + 5, box.y + box.height / 2);
    await page().keyboard.down("Control");
    await page().mouse.click(box.x + 5, box.y + box.height / 2);
    await page().keyboard.up("Control");
    const lines = await recorded();
    expect(lines).toContain("addSelection | id=toppings | label=Ham | []");
    expect(lines).toContain("removeSelection | id=toppings | label=Ham | []");
  });

  it("records editContent when a contenteditable loses the focus changed", async () => {
    await page().click("#editor");
    await page().keyboard.press("End");
    await page().keyboard.type(" world");
    await page().click("#go");
    expect(await recorded()).toContain("editContent | id=editor | Hello world | []");
  });

  it("records a click on a label as one click, not also the click it makes on its checkbox", async () => {
    await page().click("#agree-label");
    expect(await page().isChecked("#agree")).toBe(true);
    expect((await recorded()).filter((line) => line.startsWith("click"))).toEqual(["click | id=agree-label |  | []"]);
  });

  it("records two clicks on different buttons made one right after the other", async () => {
    const [one, two] = [await page().locator("#one").boundingBox(), await page().locator("#two").boundingBox()];
    await page().mouse.click(one!.x + 5, one!.y + 5);
    await page().mouse.click(two!.x + 5, two!.y + 5);
    expect(await recorded()).toEqual(["click | id=one |  | []", "click | id=two |  | []"]);
  });

  it("records a double click as doubleClick", async () => {
    await page().dblclick("#para");
    expect(await recorded()).toContain("doubleClick | id=para |  | []");
  });

  it("records a click in an iframe with its frame path", async () => {
    await page().frameLocator("#inner").locator("#inside").click();
    expect(await recorded()).toEqual(["click | id=inside |  | [0]"]);
  });

  it("tells the frame element's id as the frame's locator, and no locator for a frame whose id another element has too", async () => {
    await page().frameLocator("#inner").locator("#inside").click();
    await page().frameLocator("iframe#twice").locator("#inside").click();
    const frames = (await reports()).map((r) => [r.frame, r.frameTargets]);
    expect(frames).toEqual([
      [[0], [["id=inner", "id"]]],
      [[1], [null]],
    ]);
  });

  it("records nothing the page's own scripts dispatch", async () => {
    await page().evaluate(() => {
      document.getElementById("forged")!.click();
      const q = document.getElementById("q") as HTMLInputElement;
      q.value = "forged";
      q.dispatchEvent(new Event("change", { bubbles: true }));
      q.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
      document.getElementById("para")!.dispatchEvent(new MouseEvent("dblclick", { bubbles: true }));
    });
    expect(await recorded()).toEqual([]);
  });
});
