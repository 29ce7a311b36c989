// Healing's core (services/healing/) in real headless Chromium, bundled for the page as the
// players bundle it: fingerprints with real boxes and rendered text, and what only a page
// with layout can show (a locator's hidden matches passed over, a relocation after a restyle).
// The 501 element/mutation pairs are `npm run bench -- --only heal`.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../drivers/host/chromium.ts";
import { bundleForPage, servePages } from "../support/browserPages.ts";

const GLOBAL = "__ideCoreHealing";

const SHOP = `<!doctype html><html><head><title>Shop</title>
<style>.card{display:inline-block;width:180px;margin:8px;border:1px solid #ccc}</style></head><body>
  <div class="cards">
    <div class="card"><h3>Blue hat</h3><button class="buy">Add to cart</button></div>
    <div class="card"><h3>Red scarf</h3><button class="buy" id="scarf">Add to cart</button></div>
    <div class="card"><h3>Green gloves</h3><button class="buy">Add to cart</button></div>
  </div>
</body></html>`;

let site: Awaited<ReturnType<typeof servePages>>;
let browser: Browser;
let page: Page;
let bundle: string;

beforeAll(async () => {
  bundle = await bundleForPage(`export { fingerprintOf, heal } from "./services/healing/index.ts";`, GLOBAL);
  site = await servePages({ "/": SHOP });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** The shop loaded fresh with the healing code in it. */
async function freshShop(): Promise<void> {
  await page.goto(`${site.origin}/`);
  await page.evaluate(`${bundle}; void 0`);
}

/** The fingerprint of the element `css` finds in the fresh shop. */
async function recorded(css: string): Promise<Record<string, unknown>> {
  await freshShop();
  return page.evaluate(([css, name]) => (globalThis as any)[name].fingerprintOf(document.querySelector(css)), [css, GLOBAL] as const);
}

/** heal() in the page after `change` ran in it: how it found the element, and that element's card title. */
async function healAfter(change: string, request: Record<string, unknown>): Promise<{ via: string; locator: string; title: string | null; found: boolean }> {
  await freshShop();
  await page.evaluate(change);
  return page.evaluate(
    ([request, name]) => {
      const result = (globalThis as any)[name].heal(document, request);
      if (!result.found) return { found: false, via: result.why, locator: "", title: null };
      return { found: true, via: result.via, locator: result.locator, title: result.element.closest(".card")?.querySelector("h3")?.textContent ?? null };
    },
    [request, GLOBAL] as const,
  );
}

describe("healing in Chromium", () => {
  it("records the element's box and rendered text in its fingerprint", async () => {
    const fingerprint = await recorded("#scarf");
    expect(fingerprint).toMatchObject({ tag: "button", id: "scarf", text: "Add to cart", neighbourText: "Red scarf", xpath: "/html/body/div/div[2]/button" });
    const box = fingerprint.box as { x: number; y: number; width: number; height: number };
    expect(box.width).toBeGreaterThan(0);
    expect(box.height).toBeGreaterThan(0);
  });

  it("passes over a locator's hidden match when the recorded element was shown, and takes its shown one", async () => {
    const fingerprint = await recorded("#scarf");
    const hideACopy = `(() => { const copy = document.querySelector("#scarf").closest(".card").cloneNode(true); copy.style.display = "none"; document.querySelector(".cards").prepend(copy); })()`;
    expect(await healAfter(hideACopy, { target: "id=scarf", targets: [], fingerprint })).toEqual({ found: true, via: "target", locator: "id=scarf", title: "Red scarf" });
  });

  it("does not count a locator whose only match is hidden, and tries the next", async () => {
    const fingerprint = await recorded("#scarf");
    const hide = `(() => { const old = document.querySelector("#scarf"); old.style.visibility = "hidden"; const fresh = document.createElement("button"); fresh.className = "buy"; fresh.textContent = "Add to cart"; old.after(fresh); })()`;
    const result = await healAfter(hide, { target: "id=scarf", targets: ["id=scarf", "xpath=//div[2]/button[2]"], fingerprint });
    expect(result).toMatchObject({ found: true, via: "targets", locator: "xpath=//div[2]/button[2]", title: "Red scarf" });
  });

  it("for a command that needs its element seen, relocates to the shown button past a transparent copy of its card laid over it", async () => {
    const fingerprint = await recorded("#scarf");
    await freshShop();
    // A faded-out quick view: a transparent copy of the card laid over it, before it in the page; the ids gone.
    await page.evaluate(`(() => {
      const card = document.querySelector("#scarf").closest(".card"); const copy = card.cloneNode(true); const box = card.getBoundingClientRect();
      copy.style.cssText = "position:absolute;margin:0;opacity:0;left:" + (box.left + scrollX) + "px;top:" + (box.top + scrollY) + "px";
      copy.querySelector("button").dataset.copy = "yes"; card.before(copy);
      for (const b of document.querySelectorAll("button")) b.removeAttribute("id");
    })()`);
    const heal = (usable: boolean) =>
      page.evaluate(
        ([request, name, usable]) => {
          const shown = (el: Element) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
          const result = (globalThis as any)[name].heal(document, request, usable ? { usable: shown } : {});
          return result.found ? { via: result.via, copy: result.element.dataset.copy === "yes", title: result.element.closest(".card").querySelector("h3").textContent } : { via: result.why };
        },
        [{ target: "id=scarf", targets: ["css=.card:nth-child(2) > .buy"], fingerprint }, GLOBAL, usable] as const,
      );
    expect(await heal(true)).toEqual({ via: "relocation", copy: false, title: "Red scarf" });
    // A command that needs no visible element keeps the rule for what is rendered: the transparent copy counts.
    expect(await heal(false)).toEqual({ via: "targets", copy: true, title: "Red scarf" });
  });

  it("relocates a restyled, reordered card's button by the text around it, not by its old place", async () => {
    const fingerprint = await recorded("#scarf");
    const release = `(() => {
      const style = document.createElement("style"); style.textContent = ".card{width:300px;padding:20px}"; document.head.append(style);
      const cards = document.querySelector(".cards"); cards.append(cards.children[1]);
      for (const b of document.querySelectorAll("button")) b.removeAttribute("id");
    })()`;
    const result = await healAfter(release, { target: "id=scarf", targets: ["css=.card:nth-child(2) > .buy"], fingerprint });
    expect(result).toMatchObject({ found: true, via: "relocation", title: "Red scarf" });
    expect(result.locator).not.toBe("css=.card:nth-child(2) > .buy");
  });
});
