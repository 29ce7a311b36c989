// "Find target in page" (CONTRACT section 21) without a browser: the in-page part
// (drivers/findInPage/) in jsdom, whose elements have no layout, so a box is given to the ones
// that need one; ide.findInPage's door (core/findInPage.ts) over a fake port; and what the
// command form says for each answer (ui/pageFinder.ts).
import { JSDOM } from "jsdom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createIde } from "../../index.ts";
import { findInDocument, OUTLINE_MS, OUTLINE_TAG } from "../../drivers/findInPage/index.ts";
import { countWording, findWording, pageFinder, readFindReply } from "../../ui/pageFinder.ts";
import { LocatorError } from "../../services/locators/index.ts";
import { readFindLocator } from "../../drivers/webextension/messages.ts";

const PAGE = `<!doctype html><body><p class="item">one</p><p class="item">two</p><p class="item" hidden>three</p><a href="/x">x</a></body>`;

function page(boxes = true) {
  const dom = new JSDOM(PAGE, { pretendToBeVisual: true });
  const doc = dom.window.document;
  if (boxes) {
    // jsdom lays nothing out and scrolls nothing: the first two items get the box a browser
    // would give them, and a note of being scrolled into view.
    doc.querySelectorAll(".item:not([hidden])").forEach((el, i) => {
      el.scrollIntoView = () => el.setAttribute("data-scrolled", "yes");
      el.getBoundingClientRect = () => ({ left: 10, top: 20 + 30 * i, width: 200, height: 24, right: 210, bottom: 44 + 30 * i, x: 10, y: 20 + 30 * i, toJSON: () => ({}) });
    });
  }
  return doc;
}
const outlines = (doc: Document) => Array.from(doc.getElementsByTagName(OUTLINE_TAG)) as HTMLElement[];

afterEach(() => {
  vi.useRealTimers();
});

describe("counting and outlining in the page", () => {
  it("counts every match as the player finds them, hidden ones too, without drawing anything when not asked", () => {
    const doc = page();
    expect(findInDocument(doc, "css=.item", false)).toEqual({ ok: true, count: 3, shown: true });
    expect(findInDocument(doc, "xpath=//a", false)).toEqual({ ok: true, count: 1, shown: false });
    expect(findInDocument(doc, "id=nothing", false)).toEqual({ ok: true, count: 0, shown: false });
    expect(outlines(doc)).toEqual([]);
  });

  it("outlines the first match over its box, out of the pointer's way, and removes the outline after its time", () => {
    vi.useFakeTimers();
    const doc = page();
    expect(findInDocument(doc, "css=.item", true)).toEqual({ ok: true, count: 3, shown: true });
    const [box] = outlines(doc);
    expect(box.parentElement).toBe(doc.documentElement);
    expect([box.style.left, box.style.top, box.style.width, box.style.height]).toEqual(["10px", "20px", "200px", "24px"]);
    expect(box.style.getPropertyValue("pointer-events")).toBe("none");
    expect(box.getAttribute("aria-hidden")).toBe("true");
    expect(doc.querySelector("[data-scrolled]")?.textContent).toBe("one");
    vi.advanceTimersByTime(OUTLINE_MS);
    expect(outlines(doc)).toEqual([]);
  });

  it("keeps one outline at a time, and leaves it out of the counts while it shows", () => {
    const doc = page();
    findInDocument(doc, "css=.item", true);
    findInDocument(doc, "xpath=//p[2]", true);
    expect(outlines(doc)).toHaveLength(1);
    expect(outlines(doc)[0].style.top).toBe("50px");
    expect(findInDocument(doc, "xpath=//html/*", false)).toEqual({ ok: true, count: 2, shown: false });
    expect(findInDocument(doc, `css=${OUTLINE_TAG}`, false)).toMatchObject({ count: 0 });
  });

  it("draws nothing for a first match with no box, and says so", () => {
    const doc = page(false);
    expect(findInDocument(doc, "css=.item", true)).toEqual({ ok: true, count: 3, shown: false });
    expect(outlines(doc)).toEqual([]);
  });

  it("names an invalid or empty locator as such, and leaves the page alone", () => {
    const doc = page();
    for (const location of ["css=p[", "xpath=//p[", "nonsense=1", "  "]) {
      const answer = findInDocument(doc, location, true);
      expect(answer).toMatchObject({ ok: false, errorCode: "InvalidLocator" });
      expect(answer.ok === false && answer.error.length).toBeGreaterThan(10);
    }
    expect(outlines(doc)).toEqual([]);
  });
});

describe("ide.findInPage", () => {
  const ideWith = (findInPage?: Parameters<typeof createIde>[0] extends infer O ? (O extends { findInPage?: infer F } ? F : never) : never) => createIde({ findInPage });

  it("asks the page through the port and answers its count", async () => {
    const port = vi.fn(async () => ({ count: 3, shown: true }));
    const ide = ideWith(port);
    expect(await ide.findInPage({ location: "css=.item", outline: true })).toEqual({ count: 3, shown: true });
    expect(await ide.findInPage({ location: "css=.item" })).toEqual({ count: 3, shown: true });
    expect(port.mock.calls).toEqual([["css=.item", true], ["css=.item", false]]);
    ide.stop();
  });

  it("refuses a question that is not one, and an invalid locator, before asking the page", async () => {
    const port = vi.fn(async () => ({ count: 1, shown: true }));
    const ide = ideWith(port);
    for (const question of [null, "css=a", { location: 5 }, { location: "css=a", outline: "yes" }, { location: "css=a", extra: 1 }]) {
      expect(await ide.findInPage(question)).toMatchObject({ errorCode: "InvalidRequest" });
    }
    expect(await ide.findInPage({ location: "nonsense=1" })).toMatchObject({ errorCode: "InvalidLocator" });
    expect(await ide.findInPage({ location: " " })).toMatchObject({ errorCode: "InvalidLocator" });
    expect(port).not.toHaveBeenCalled();
    ide.stop();
  });

  it("says no page is open without a port, and passes on the page's own codes and failures", async () => {
    const bare = ideWith(undefined);
    expect(await bare.findInPage({ location: "id=a" })).toMatchObject({ errorCode: "NoPage", error: expect.stringMatching(/^No page is open/) });
    bare.stop();
    const noPage = ideWith(async () => Promise.reject(new LocatorError("NoPage", "No page is open: play first.")));
    expect(await noPage.findInPage({ location: "id=a" })).toEqual({ errorCode: "NoPage", error: "No page is open: play first." });
    noPage.stop();
    const crashed = ideWith(async () => Promise.reject(new Error("tab crashed")));
    expect(await crashed.findInPage({ location: "id=a" })).toEqual({ errorCode: "NoPage", error: 'The page under test could not be searched for "id=a": tab crashed' });
    crashed.stop();
  });
});

describe("what the command form says", () => {
  it("says how many match and what is outlined", () => {
    expect(findWording({ ok: true, count: 3, shown: true })).toBe("3 elements match; the first is outlined");
    expect(findWording({ ok: true, count: 1, shown: true })).toBe("1 element matches; it is outlined");
    expect(findWording({ ok: true, count: 0, shown: false })).toBe("No element matches");
    expect(findWording({ ok: true, count: 2, shown: false })).toBe("2 elements match, but the first has no box on the page (hidden), so nothing is outlined");
    expect(findWording({ ok: false, code: "InvalidLocator", message: "bad" })).toBe("Not a locator: bad");
    expect(findWording({ ok: false, code: "NoPage", message: "No page is open." })).toBe("Nothing was outlined: No page is open.");
  });

  it("reads the IDE's answer, and words what could not be asked", async () => {
    expect(readFindReply({ count: 2, shown: true })).toEqual({ ok: true, count: 2, shown: true });
    expect(readFindReply({ error: "no", errorCode: "NoPage" })).toEqual({ ok: false, code: "NoPage", message: "no" });
    expect(readFindReply({ count: -1 })).toMatchObject({ ok: false, code: null });
    expect(readFindReply("3")).toMatchObject({ ok: false, code: null });
    const broken = pageFinder(async () => Promise.reject(new Error("socket closed")), "k");
    expect(await broken.find("id=a", false)).toEqual({ ok: false, code: null, message: "The page could not be asked: socket closed" });
    expect([countWording({ ok: true, count: 1, shown: true }), countWording({ ok: true, count: 0, shown: false })]).toEqual(["1 match", "0 matches"]);
    expect(countWording({ ok: false, code: "InvalidLocator", message: "x" })).toBe("not a locator");
  });
});

describe("the extension's content script", () => {
  it("takes a well-formed locator.find only", () => {
    expect(readFindLocator({ type: "locator.find", location: "css=a", outline: true })).toEqual({ type: "locator.find", location: "css=a", outline: true });
    for (const value of [null, "locator.find", { type: "locator.find", location: "css=a" }, { type: "locator.find", location: 1, outline: false }, { type: "locator.resolve", location: "css=a", outline: false }, { type: "locator.find", location: "css=a", outline: false, extra: 1 }]) {
      expect(readFindLocator(value)).toBeNull();
    }
  });
});
