// Healing's core in jsdom (services/healing/): the fingerprint a recorder keeps, and relocation
// by similarity when the page changed. jsdom has no layout, so boxes are 0 and place and size
// do not count here; real Chromium and 300+ mutations are `npm run bench -- --only heal`.
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fingerprintOf, heal, MAX_FINGERPRINT_JSON, relocate, refusalMessage } from "../../services/healing/index.ts";
import type { Fingerprint } from "../../services/healing/index.ts";
import { parseFingerprint } from "../../services/healing/schema.ts";
import { findElement, parseLocator } from "../../services/locators/index.ts";

// @medv/finder reads the globals a page has (Node, document, CSS.escape); jsdom's window has
// the first two and no CSS, so the test gives it the spec's escape for identifiers.
const saved: Record<string, unknown> = {};
beforeAll(() => {
  const { window } = new JSDOM("<!doctype html><body></body>");
  const cssEscape = (value: string) =>
    value.replace(/^-?\d|[^\w-]/g, (c) => (/\d/.test(c.at(-1)!) ? `\\${c.codePointAt(c.length - 1)!.toString(16)} ` : `\\${c}`));
  for (const [key, value] of Object.entries({ Node: window.Node, document: window.document, CSS: { escape: cssEscape } })) {
    saved[key] = (globalThis as Record<string, unknown>)[key];
    (globalThis as Record<string, unknown>)[key] = value;
  }
});
afterAll(() => {
  for (const [key, value] of Object.entries(saved)) (globalThis as Record<string, unknown>)[key] = value;
});

const page = (body: string): Document => new JSDOM(`<!doctype html><html><body>${body}</body></html>`, { url: "http://shop.test/" }).window.document;
const the = (doc: Document, css: string) => doc.querySelector(css)!;
const found = (doc: Document, locator: string) => findElement(doc, parseLocator(locator));

const FORM = `
  <header><a href="/">Home</a><a href="/help">Help</a></header>
  <form id="login" class="card">
    <label for="user">User name</label><input id="user" name="user" class="field">
    <label for="pass">Password</label><input id="pass" name="pass" type="password" class="field">
    <button id="sign-in" class="btn btn-primary" type="submit">Sign in</button>
    <button id="reset" class="btn" type="reset">Clear the form</button>
  </form>
  <ul class="products">
    <li><h3>Blue hat</h3><p>A hat for sunny days</p><button class="buy">Add to cart</button></li>
    <li><h3>Red scarf</h3><p>Warm and long</p><button class="buy">Add to cart</button></li>
    <li><h3>Green gloves</h3><p>For cold hands</p><button class="buy">Add to cart</button></li>
  </ul>`;

/** The fingerprint of `css` in FORM, and FORM changed by `change`. */
function recordThenChange(css: string, change: (doc: Document) => void): { fingerprint: Fingerprint; doc: Document } {
  const fingerprint = fingerprintOf(the(page(FORM), css));
  const doc = page(FORM);
  change(doc);
  return { fingerprint, doc };
}

function expectRelocatedTo(doc: Document, fingerprint: Fingerprint, expected: Element) {
  const result = relocate(doc, fingerprint);
  if (!result.found) throw new Error(refusalMessage(result));
  expect(result.element).toBe(expected);
  expect(found(doc, result.locator)).toBe(expected);
  expect(result.score).toBeGreaterThan(0);
  expect(result.score).toBeLessThanOrEqual(1);
}

describe("the fingerprint", () => {
  it("keeps what a person knows the element by: tag, id, name, classes, type, label, role, accessible name, path and the text around it", () => {
    const doc = page(FORM);
    const fp = fingerprintOf(the(doc, "#pass"));
    expect(fp).toMatchObject({
      tag: "input", id: "pass", name: "pass", classes: ["field"], type: "password", label: "Password",
      role: "textbox", accessibleName: "Password", xpath: "/html/body/form/input[2]", index: 3,
      box: { x: 0, y: 0, width: 0, height: 0 },
    });
    expect(fp.neighbourText).toContain("User name");
    expect(fingerprintOf(the(doc, "li:nth-child(2) button"))).toMatchObject({ text: "Add to cart", role: "button", accessibleName: "Add to cart", neighbourText: "Red scarf Warm and long" });
  });

  it("keeps test-id and identifying aria attributes, href, src and alt", () => {
    const doc = page(`<a data-testid="help" data-qa="help-link" aria-label="Get help" href="/help">?</a><img src="/logo.png" alt="Logo">`);
    expect(fingerprintOf(the(doc, "a"))).toMatchObject({ testIds: { "data-testid": "help", "data-qa": "help-link" }, aria: { "aria-label": "Get help" }, href: "/help", accessibleName: "Get help", role: "link" });
    expect(fingerprintOf(the(doc, "img"))).toMatchObject({ src: "/logo.png", alt: "Logo", role: "img", accessibleName: "Logo" });
  });

  it("stays under its size limit however long the page's texts are", () => {
    const long = "word ".repeat(2000);
    const doc = page(`<div class="${"c".repeat(500)} x y z"><p title="${long}">${long}</p><button aria-label="${long}" class="${"k ".repeat(50)}">${long}</button></div>`);
    for (const css of ["p", "button", "div"]) expect(JSON.stringify(fingerprintOf(the(doc, css))).length).toBeLessThanOrEqual(MAX_FINGERPRINT_JSON);
    const every = ["id", "name", "type", "href", "src", "alt", "title", "placeholder", "data-testid", "data-test", "data-test-id", "data-qa", "data-cy", "aria-label", "aria-description", "aria-roledescription", "aria-placeholder", "aria-controls"];
    const deep = page(`${"<div>".repeat(300)}<a ${every.map((a) => `${a}="${a} ${long.slice(0, 300)}"`).join(" ")}>${long}</a>${"</div>".repeat(300)}`);
    const fp = fingerprintOf(the(deep, "a"));
    expect(JSON.stringify(fp).length).toBeLessThanOrEqual(MAX_FINGERPRINT_JSON);
    expect(fp.xpath.endsWith("/div/div/a")).toBe(true);
    expect(fp.testIds?.["data-cy"]).toMatch(/^data-cy/);
  });

  it("writes its XPath through open shadow roots, one path per root", () => {
    const doc = page(`<div><shop-cart></shop-cart></div>`);
    const shadow = the(doc, "shop-cart").attachShadow({ mode: "open" });
    shadow.innerHTML = `<div><span>0</span><button>Pay</button></div>`;
    expect(fingerprintOf(shadow.querySelector("button")!).xpath).toBe("/html/body/div/shop-cart >>> /div/button");
  });

  it("passes its schema at the door, and a broken one is refused with what is wrong", () => {
    const fp = fingerprintOf(the(page(FORM), "#sign-in"));
    expect(parseFingerprint(JSON.parse(JSON.stringify(fp)))).toEqual(fp);
    expect(() => parseFingerprint({ ...fp, index: -1 })).toThrow(/Not a fingerprint at index/);
    expect(() => parseFingerprint({ tag: "a" })).toThrow(/Not a fingerprint/);
  });
});

describe("relocation by similarity", () => {
  it("finds a button whose id was renamed", () => {
    const { fingerprint, doc } = recordThenChange("#sign-in", (d) => (the(d, "#sign-in").id = "login-submit"));
    expectRelocatedTo(doc, fingerprint, the(doc, "#login-submit"));
  });

  it("finds a field whose class was dropped and whose id was renamed with its label's for", () => {
    const { fingerprint, doc } = recordThenChange("#user", (d) => {
      const user = the(d, "#user");
      user.removeAttribute("class");
      user.id = "login-name";
      the(d, "label[for=user]").setAttribute("for", "login-name");
    });
    expectRelocatedTo(doc, fingerprint, the(doc, "input[name=user]"));
  });

  it("finds a button whose text was edited", () => {
    const { fingerprint, doc } = recordThenChange("#reset", (d) => {
      the(d, "#reset").textContent = "Clear this form";
      the(d, "#reset").id = "clear";
    });
    expectRelocatedTo(doc, fingerprint, the(doc, "#clear"));
  });

  it("finds a button a new wrapper was put around", () => {
    const { fingerprint, doc } = recordThenChange("li:nth-child(2) button", (d) => {
      const button = the(d, "li:nth-child(2) button");
      const wrapper = d.createElement("div");
      wrapper.className = "actions";
      button.replaceWith(wrapper);
      wrapper.append(button);
    });
    expectRelocatedTo(doc, fingerprint, the(doc, ".actions button"));
  });

  it("finds the same card's button when a card was inserted before it, by the text around it", () => {
    const { fingerprint, doc } = recordThenChange("li:nth-child(2) button", (d) => {
      const card = d.createElement("li");
      card.innerHTML = `<h3>Yellow socks</h3><p>Bright</p><button class="buy">Add to cart</button>`;
      the(d, "li:nth-child(2)").before(card);
    });
    expectRelocatedTo(doc, fingerprint, the(doc, "li:nth-child(3) button"));
  });

  it("finds a row's Delete in a long table whose rows differ only by a name and a number, words every row shares counting little", () => {
    const table = (rows: number, inserted: number) =>
      page(`<table><tbody>${Array.from({ length: rows }, (_, i) => {
        const n = i < inserted ? i : i - 1;
        const name = i === inserted ? "New Person" : `User ${n} Example`;
        return `<tr><td>${name}</td><td>user${n}@example.com</td><td>Viewer</td><td>Active member since 2020, last seen today</td><td><button class="btn">Edit</button> <button class="btn">Delete</button></td></tr>`;
      }).join("")}</tbody></table>`);
    const fingerprint = fingerprintOf(the(table(60, 99), "tr:nth-child(31) button:last-child"));
    const doc = table(61, 10); // a row inserted above: every row below moved down one
    expectRelocatedTo(doc, fingerprint, the(doc, "tr:nth-child(32) button:last-child"));
    expect(the(doc, "tr:nth-child(32) td").textContent).toBe("User 30 Example");
  });

  it("refuses a near-tie and names the nearest candidates with their scores", () => {
    const { fingerprint, doc } = recordThenChange("li:nth-child(2) button", (d) => {
      for (const h3 of Array.from(d.querySelectorAll("li h3"))) h3.textContent = "A product";
      for (const p of Array.from(d.querySelectorAll("li p"))) p.textContent = "Something";
    });
    const result = relocate(doc, fingerprint);
    expect(result.found).toBe(false);
    if (result.found) return;
    expect(result.why).toBe("too close");
    expect(result.candidates).toHaveLength(3);
    for (const candidate of result.candidates) {
      expect(found(doc, candidate.locator).textContent).toBe("Add to cart");
      expect(candidate.score).toBeGreaterThan(0);
      expect(candidate.score).toBeLessThanOrEqual(1);
    }
    expect(refusalMessage(result)).toMatch(/^More than one element resembles the recorded one .*nearest: .+ \(0\.\d\d\), .+ \(0\.\d\d\), .+ \(0\.\d\d\)\.$/);
  });

  it("refuses when nothing in the page is similar", () => {
    const fingerprint = fingerprintOf(the(page(FORM), "#sign-in"));
    const result = relocate(page(`<main><p>Nothing to see here.</p><img src="/x.png" alt="x"></main>`), fingerprint);
    expect(result).toMatchObject({ found: false, why: "below threshold" });
    if (!result.found) expect(refusalMessage(result)).toMatch(/^No element resembles the recorded one closely enough .*nearest: /);
  });

  it("walks open shadow roots", () => {
    const make = (label: string) => {
      const doc = page(`<shop-cart></shop-cart>`);
      the(doc, "shop-cart").attachShadow({ mode: "open" }).innerHTML = `<p>Total 3</p><button id="${label}">Pay now</button>`;
      return doc;
    };
    const fingerprint = fingerprintOf(the(make("pay"), "shop-cart").shadowRoot!.querySelector("button")!);
    const doc = make("checkout");
    const result = relocate(doc, fingerprint);
    expect(result).toMatchObject({ found: true, locator: "css=shop-cart >>> #checkout" });
  });
});

describe("healing: the locators, then relocation", () => {
  it("takes the target when it still finds the recorded element", () => {
    const doc = page(FORM);
    const fingerprint = fingerprintOf(the(doc, "#sign-in"));
    expect(heal(doc, { target: "id=sign-in", targets: [], fingerprint })).toMatchObject({ found: true, via: "target", score: 1, locator: "id=sign-in" });
  });

  it("does not count a positional locator that now finds a neighbour, and relocates instead", () => {
    const doc0 = page(FORM);
    const fingerprint = fingerprintOf(the(doc0, "li:nth-child(2) button"));
    const { doc } = recordThenChange("li", (d) => {
      const card = d.createElement("li");
      card.innerHTML = `<h3>Yellow socks</h3><p>Bright</p><button class="buy">Add to cart</button>`;
      the(d, "li:nth-child(2)").before(card);
    });
    const result = heal(doc, { target: "xpath=//li[2]/button", targets: ["css=li:nth-child(2) > .buy"], fingerprint });
    expect(result).toMatchObject({ found: true, via: "relocation" });
    if (result.found) expect(result.element).toBe(the(doc, "li:nth-child(3) button"));
  });

  it("keeps a locator that names the element when its text was edited, though a look-alike now resembles the recording more", () => {
    const { fingerprint, doc } = recordThenChange("li:nth-child(2) button", (d) => {
      for (const [i, button] of Array.from(d.querySelectorAll("li button")).entries()) button.id = `buy-${i}`;
      the(d, "li:nth-child(1)").innerHTML = the(d, "li:nth-child(2)").innerHTML.replace("buy-1", "buy-0"); // a listing twice
      the(d, "li:nth-child(2) button").textContent = "Add to cart now";
    });
    const impostor = relocate(doc, fingerprint);
    expect(impostor.candidates[0].locator).toBe("id=buy-0"); // by similarity alone, the copy wins
    expect(heal(doc, { target: "id=buy-1", targets: [], fingerprint })).toMatchObject({ found: true, via: "target", locator: "id=buy-1" });
    // A place is no name: a positional locator's match counts only as the best, so here it is a near-tie.
    expect(heal(doc, { target: "css=li:nth-child(2) > button", targets: [], fingerprint })).toMatchObject({ found: false, why: "too close" });
  });

  it("tells the radio buttons of one group apart by their value once their ids and labels are gone", () => {
    const radios = (ids: boolean) =>
      page(["weekly", "monthly", "never"].map((v) => `<label${ids ? ` for="n-${v}"` : ""}>${v}</label><input type="radio" name="news" value="${v}"${ids ? ` id="n-${v}"` : ""}>`).join(""));
    const fingerprint = fingerprintOf(the(radios(true), "#n-monthly"));
    const doc = radios(false);
    expectRelocatedTo(doc, fingerprint, the(doc, "input[value=monthly]"));
  });

  it("is v3's fallback for a command recorded without a fingerprint", () => {
    const doc = page(FORM);
    expect(heal(doc, { target: "id=gone", targets: ["xpath=//li[2]/button"] })).toMatchObject({ found: true, via: "targets", locator: "xpath=//li[2]/button" });
    expect(heal(doc, { target: "id=gone", targets: [] })).toEqual({ found: false, candidates: [], why: "no fingerprint" });
  });

  it("falls back to the next of targets, scored 1, when the target finds nothing", () => {
    const { fingerprint, doc } = recordThenChange("#sign-in", (d) => (the(d, "#sign-in").id = "go"));
    expect(heal(doc, { target: "id=sign-in", targets: ["id=sign-in", "css=.btn-primary"], fingerprint })).toMatchObject({ found: true, via: "targets", locator: "css=.btn-primary", score: 1 });
  });
});
