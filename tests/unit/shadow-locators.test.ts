// Shadow DOM locators (CONTRACT section 19) in jsdom: `css=A >>> B` parses into its parts,
// finds inside open shadow roots (every match of a step, in document order), says which step
// found nothing, and /playback/location answers a chain of xpaths for an element in a shadow tree.
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTargets, V3_BUILDER_ORDER } from "../../services/locators/builders.ts";
import { findElement, findElements, LocatorError, parseLocator, resolveInDocument, splitShadowSteps } from "../../services/locators/index.ts";

/** A page with two <x-card> hosts (the second nests an <x-inner> host), a closed host and a plain div. */
function shadowPage(): Document {
  const { document } = new JSDOM(`<!doctype html><body>
    <x-card id="first"></x-card>
    <x-card id="second"></x-card>
    <x-closed></x-closed>
    <div class="plain"><button>Outside</button></div>
  </body>`).window;
  const [first, second] = Array.from(document.querySelectorAll("x-card"));
  first.attachShadow({ mode: "open" }).innerHTML = `<button class="buy">First buy</button>`;
  const secondRoot = second.attachShadow({ mode: "open" });
  secondRoot.innerHTML = `<button class="buy">Second buy</button><x-inner></x-inner><p>one</p><p>two</p>`;
  secondRoot.querySelector("x-inner")!.attachShadow({ mode: "open" }).innerHTML = `<input id="deep" name="q"><span>Deep text</span>`;
  document.querySelector("x-closed")!.attachShadow({ mode: "closed" }).innerHTML = `<button class="buy">Hidden</button>`;
  return document;
}

function codeOf(run: () => unknown): { code: string; message: string } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof LocatorError)) throw error;
    return { code: error.errorCode, message: error.message };
  }
}

describe("parsing css=A >>> B", () => {
  it("splits a chain into its css parts, trimmed, keeping the value as written", () => {
    expect(parseLocator("css=x-card >>>  x-inner>>>#deep")).toEqual({
      strategy: "css",
      value: "x-card >>>  x-inner>>>#deep",
      shadowSteps: ["x-card", "x-inner", "#deep"],
    });
  });

  it("leaves a css value without >>> as a plain selector, and >>> inside quotes, brackets or parentheses alone", () => {
    expect(parseLocator("css=a > b")).toEqual({ strategy: "css", value: "a > b" });
    expect(parseLocator('css=a[title=">>>"]').shadowSteps).toBeUndefined();
    expect(splitShadowSteps(`a[title='x >>> y'] >>> b:not([a=">>>"]) >>> c\\>>>d`)).toEqual([
      "a[title='x >>> y']",
      'b:not([a=">>>"])',
      "c\\>>>d",
    ]);
  });

  it("rejects an empty part as InvalidLocator, saying which part", () => {
    for (const [location, part] of [["css=>>> b", "part 1 of 2"], ["css=a >>>", "part 2 of 2"], ["css=a >>> >>> c", "part 2 of 3"]]) {
      const failure = codeOf(() => parseLocator(location));
      expect(failure?.code).toBe("InvalidLocator");
      expect(failure?.message).toContain(`empty ${part}`);
    }
  });

  it("rejects a part that is not a CSS selector as InvalidLocator, naming the part", () => {
    const failure = codeOf(() => parseLocator("css=x-card >>> button! >>> p"));
    expect(failure?.code).toBe("InvalidLocator");
    expect(failure?.message).toContain('part 2 ("button!")');
  });

  it("rejects >>> in an id, name or xpath locator as InvalidLocator, pointing to css=", () => {
    for (const location of ["id=host >>> inner", "name=a >>> b", "xpath=//x-card >>> //button", "//x-card >>> //button"]) {
      const failure = codeOf(() => parseLocator(location));
      expect(failure?.code, location).toBe("InvalidLocator");
      expect(failure?.message, location).toContain("only css= steps into shadow roots");
    }
  });

  it("keeps >>> where it is text: a link's text, an xpath's string", () => {
    expect(parseLocator("linkText=More >>>")).toEqual({ strategy: "linkText", value: "More >>>" });
    expect(parseLocator("xpath=//a[.='>>>']").strategy).toBe("xpath");
  });
});

describe("finding with css=A >>> B", () => {
  it("finds an element in the open shadow root of what the first part found", () => {
    const doc = shadowPage();
    expect(findElement(doc, parseLocator("css=#second >>> .buy")).textContent).toBe("Second buy");
  });

  it("chains through nested shadow roots", () => {
    const doc = shadowPage();
    expect(findElement(doc, parseLocator("css=#second >>> x-inner >>> span")).textContent).toBe("Deep text");
  });

  it("searches the shadow roots of every match of a step, in document order, and takes the first", () => {
    const doc = shadowPage();
    const all = findElements(doc, parseLocator("css=x-card >>> .buy"));
    expect(all.map((el) => el.textContent)).toEqual(["First buy", "Second buy"]);
    expect(findElement(doc, parseLocator("css=x-card >>> .buy")).textContent).toBe("First buy");
    // The first x-card has no x-inner: the second's is found all the same.
    expect(findElement(doc, parseLocator("css=x-card >>> x-inner >>> #deep")).id).toBe("deep");
  });

  it("does not see into a closed shadow root, nor match a plain css part inside shadow roots", () => {
    const doc = shadowPage();
    expect(findElements(doc, parseLocator("css=x-closed >>> .buy"))).toEqual([]);
    expect(findElements(doc, parseLocator("css=.buy"))).toEqual([]);
  });

  it("says which step found no open shadow root", () => {
    const doc = shadowPage();
    const closed = codeOf(() => findElement(doc, parseLocator("css=x-closed >>> .buy")));
    expect(closed).toEqual({
      code: "ElementNotFound",
      message: `No element matches the locator "css=x-closed >>> .buy": the element "x-closed" found has no open shadow root to look for ".buy" in.`,
    });
    const plain = codeOf(() => findElement(doc, parseLocator("css=div, x-closed >>> button")));
    expect(plain?.message).toContain(`none of the 2 elements "div, x-closed" found has an open shadow root`);
  });

  it("says which step matched nothing", () => {
    const doc = shadowPage();
    expect(codeOf(() => findElement(doc, parseLocator("css=x-none >>> b")))?.message).toContain(`no element matches "x-none" in the document`);
    expect(codeOf(() => findElement(doc, parseLocator("css=#first >>> x-inner >>> input")))?.message).toContain(
      `no element matches "x-inner" in the open shadow root of what "#first" found`,
    );
  });

  it("reports a part the page's engine rejects as InvalidLocator", () => {
    const doc = shadowPage();
    expect(codeOf(() => findElement(doc, parseLocator("css=x-card >>> #1")))?.code).toBe("InvalidLocator");
  });
});

describe("/playback/location and the recorder's locators for an element in a shadow tree", () => {
  // The CSS steps come from @medv/finder, which reads a page's globals (Node, document, CSS.escape).
  const saved: Record<string, unknown> = {};
  beforeAll(() => {
    const { window } = new JSDOM("<!doctype html><body></body>");
    const cssEscape = (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`);
    for (const [key, value] of Object.entries({ Node: window.Node, document: window.document, CSS: { escape: cssEscape } })) {
      saved[key] = (globalThis as Record<string, unknown>)[key];
      (globalThis as Record<string, unknown>)[key] = value;
    }
  });
  afterAll(() => {
    for (const [key, value] of Object.entries(saved)) (globalThis as Record<string, unknown>)[key] = value;
  });

  it("answers the outermost host's xpath, then a CSS selector unique in each shadow root, joined by >>>", () => {
    const doc = shadowPage();
    const chain = resolveInDocument(doc, "css=#second >>> x-inner >>> input");
    expect(chain).toBe("//x-card[@id='second'] >>> x-inner >>> #deep");
    const second = resolveInDocument(doc, "css=#second >>> p:last-child").split(" >>> ");
    expect(second[0]).toBe("//x-card[@id='second']");
    const root = doc.getElementById("second")!.shadowRoot!;
    expect(root.querySelectorAll(second[1])).toHaveLength(1);
    expect(root.querySelector(second[1])!.textContent).toBe("two");
  });

  it("builds a recorded element's css locators through its shadow roots, and no locator of the document", () => {
    const doc = shadowPage();
    const inner = doc.getElementById("second")!.shadowRoot!.querySelector("x-inner")!.shadowRoot!;
    inner.querySelector("span")!.setAttribute("data-test", "deep-text");
    const span = inner.querySelector("span")!;
    expect(buildTargets(span, { locatorOrder: V3_BUILDER_ORDER })).toEqual([
      ['css=#second >>> x-inner >>> *[data-test="deep-text"]', "css:data-attr"],
      ['css=#second >>> x-inner >>> [data-test="deep-text"]', "css:finder"],
    ]);
    // By default the test id comes first, and the same locators after it are not repeated.
    expect(buildTargets(span)).toEqual([['css=#second >>> x-inner >>> [data-test="deep-text"]', "css:testId"]]);
    // id=deep looks in the document only, where there is no such element: it is not among them.
    expect(buildTargets(inner.querySelector("#deep")!).map(([locator]) => locator)).toEqual(["css=#second >>> x-inner >>> #deep"]);
  });

  it("answers a plain xpath for an element of the document, as before", () => {
    expect(resolveInDocument(shadowPage(), "css=.plain button")).toBe("/html/body/div/button");
  });
});
