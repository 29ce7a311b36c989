// Recording inside open shadow roots (CONTRACT section 19) in real headless Chromium: the
// recorder (drivers/recorder/) records the element the user acted on, not the shadow host the
// window sees, with a `css=HOST >>> INNER` target that the project's resolver finds it with;
// `change` (which never leaves a shadow root) is heard inside the root, and a field slotted
// into a shadow tree is recorded once.
import { describe, expect, it } from "vitest";
import { recorderInPages } from "../support/recorderPage.ts";

const PAGE = `<!doctype html><html><head><title>Shadow form</title></head><body>
  <x-form id="form"><input id="slotted" slot="extra"></x-form>
  <x-form></x-form>
  <script>
    customElements.define("x-field", class extends HTMLElement {
      constructor() {
        super();
        this.attachShadow({ mode: "open" }).innerHTML = '<input class="value"><button data-test="clear">Clear</button>';
      }
    });
    customElements.define("x-form", class extends HTMLElement {
      constructor() {
        super();
        this.attachShadow({ mode: "open" }).innerHTML =
          '<select class="size"><option>Small</option><option>Large</option></select>' +
          '<x-field></x-field><button class="save">Save</button><slot name="extra"></slot>';
      }
    });
  </script>
</body></html>`;

const GLOBAL = "__ideCoreShadowRecorder";

const recorder = recorderInPages({ "/": PAGE }, "/", {
  extraModule: `import { findElement, parseLocator } from "./services/locators/index.ts";
     export { findElement, parseLocator };`,
  globalName: GLOBAL,
});
const page = () => recorder.page();
const recorded = () => recorder.recorded();

/** For each locator: whether the project's resolver finds, as its first match, the element `pick` returns in the page(). */
function findsEach(locators: string[], pick: string): Promise<boolean[]> {
  return page().evaluate(
    ([locators, pick, name]) => {
      const lib = (globalThis as unknown as Record<string, { findElement(d: Document, l: unknown): Element; parseLocator(s: string): unknown }>)[name];
      const wanted = new Function(`return ${pick}`)() as Element;
      return locators.map((locator) => {
        try {
          return lib.findElement(document, lib.parseLocator(locator)) === wanted;
        } catch {
          return false;
        }
      });
    },
    [locators, pick, GLOBAL] as const,
  );
}

const FORM_ROOT = `document.getElementById("form").shadowRoot`;
const FIELD_ROOT = `${FORM_ROOT}.querySelector("x-field").shadowRoot`;

describe("recording inside open shadow roots", () => {
  it("records a click on a button in a shadow root with a css=HOST >>> INNER target that finds it", async () => {
    await page().locator("#form").locator("button.save").click();
    const [click] = await recorded();
    expect(click.command).toBe("click");
    expect(click.target).toMatch(/^css=#form >>> \S/);
    expect(click.targets[0][0]).toBe(click.target);
    expect(await findsEach(click.targets.map(([l]) => l), `${FORM_ROOT}.querySelector(".save")`)).toEqual(click.targets.map(() => true));
  });

  it("records typing into a field of a nested shadow root, heard through its change, and its data-test button", async () => {
    await page().locator("#form").locator("x-field input").click();
    await page().keyboard.type("Ada");
    await page().locator("#form").locator("x-field button").click();
    const actions = await recorded();
    expect(actions.map((a) => `${a.command} | ${a.value}`)).toEqual(["click | ", "type | Ada", "click | "]);
    const [, typed, clear] = actions;
    expect(typed.target.split(" >>> ")).toHaveLength(3);
    expect(await findsEach(typed.targets.map(([l]) => l), `${FIELD_ROOT}.querySelector("input")`)).toEqual(typed.targets.map(() => true));
    // The test id first (CONTRACT section 18), in the same steps through the shadow roots.
    expect(clear.targets[0]).toEqual([`css=#form >>> x-field >>> [data-test="clear"]`, "css:testId"]);
    expect(await findsEach(clear.targets.map(([l]) => l), `${FIELD_ROOT}.querySelector("button")`)).toEqual(clear.targets.map(() => true));
  });

  it("records a choice in a select inside a shadow root", async () => {
    await page().locator("#form").locator("select").focus();
    await page().keyboard.press("ArrowDown");
    const actions = await recorded();
    const select = actions.find((a) => a.command === "select")!;
    expect(select.value).toBe("label=Large");
    expect(await findsEach([select.target], `${FORM_ROOT}.querySelector("select")`)).toEqual([true]);
  });

  it("records a field slotted into a shadow tree once, with its own document locator", async () => {
    await page().click("#slotted");
    await page().keyboard.type("once");
    await page().keyboard.press("Tab");
    const typed = (await recorded()).filter((a) => a.command === "type");
    expect(typed.map((a) => `${a.target} | ${a.value}`)).toEqual(["id=slotted | once"]);
  });
});
