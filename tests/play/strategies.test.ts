// `npm run play` with declared locator strategies (CONTRACT section 23), as a real process with no
// plugin anywhere: the project carries its `locatorStrategies`, and its `qa=` and `label=`
// locators play through the one player over DevTools, through `--executor webdriver` and through
// a Selenium Grid. A stale declared target heals by a declared `targets` entry, shown as written;
// an undeclared `NAME=` fails its command naming NAME; an element relocated by its fingerprint
// gets a declared strategy's locator when it carries the strategy's attribute.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fingerprintOf } from "../../services/healing/index.ts";
import { startGrid } from "../../drivers/grid/grid.ts";
import { servePages } from "../support/browserPages.ts";
import { playCli } from "../support/playCli.ts";

const SHOP = `<!doctype html><html><head><title>Shop</title></head><body>
  <label>Name <input data-qa="name" aria-label="Your name"></label>
  <button data-qa="buy" aria-label="Buy now" type="button"
    onclick="document.querySelector('[data-qa=done]').textContent = 'bought by ' + document.querySelector('[data-qa=name]').value">Buy</button>
  <p data-qa="done"></p>
</body></html>`;
// The next release: the button's data-qa was renamed; its label stayed.
const STALE = SHOP.replace('data-qa="buy"', 'data-qa="purchase"');
// A page whose buttons carry a declared strategy's attribute (no test id), and its next release:
// the id the test recorded is gone, a button was added before.
const CART = `<!doctype html><html><head><title>Cart</title></head><body><main><h1>Cart</h1>
  <p class="row"><span>Total 3</span> <button id="buy" class="primary" type="button" data-sku="BUY-1" onclick="this.textContent = 'Bought'">Buy now</button></p></main></body></html>`;
const CART_RELEASED = CART.replace('<h1>Cart</h1>', '<h1>Cart</h1><div class="promo"><button type="button" data-sku="HELP">Help</button></div>').replace('id="buy" class="primary"', 'id="purchase" class="primary btn"');

let site: Awaited<ReturnType<typeof servePages>>;
let dir: string;

beforeAll(async () => {
  site = await servePages({ "/shop": SHOP, "/stale": STALE, "/cart": CART_RELEASED });
  dir = mkdtempSync(join(tmpdir(), "ide-core-play-strategies-"));
});
afterAll(() => site?.close());

const command = (id: string, name: string, target = "", value = "", targets: string[][] = []) => ({ id, comment: "", command: name, target, targets, value });

const TESTS = {
  buys: {
    id: "t-buys",
    name: "buys",
    commands: [
      command("b1", "open", "/shop"),
      command("b2", "type", "qa=name", "Ann"),
      command("b3", "click", "qa=buy", "", [["qa=buy", "qa"], ["label=Buy now", "label"]]),
      command("b4", "store", "done", "which"),
      command("b5", "assertText", "qa=${which}", "bought by Ann"),
      command("b6", "assertElementPresent", "label=Your name"),
    ],
  },
  heals: {
    id: "t-heals",
    name: "heals",
    commands: [
      command("h1", "open", "/stale"),
      command("h2", "click", "qa=buy", "", [["qa=buy", "qa"], ["label=Buy now", "label"]]),
      command("h3", "assertText", "qa=done", "bought by "),
    ],
  },
  relocates: {
    id: "t-relocates",
    name: "relocates",
    commands: [
      command("r1", "open", "/cart"),
      // As recorded on the cart before its release: its id, and its element's fingerprint.
      { ...command("r2", "click", "id=buy"), fingerprint: fingerprintOf(new JSDOM(CART).window.document.getElementById("buy")!) },
      command("r3", "assertText", "sku=BUY-1", "Bought"),
    ],
  },
  undeclared: { id: "t-undeclared", name: "undeclared", commands: [command("u1", "open", "/shop"), command("u2", "click", "nope=buy")] },
};

/** A project of `tests` that carries its strategies, as a plugin left them: no plugin plays it. */
function project(file: string, tests: Array<keyof typeof TESTS>): string {
  const side = {
    id: "p-strategies",
    name: "Declared strategies",
    url: site.origin,
    version: "2.0",
    tests: tests.map((name) => TESTS[name]),
    suites: [],
    urls: [],
    plugins: [],
    locatorStrategies: [
      { name: "qa", css: '[data-qa="{value}"]', attribute: "data-qa" },
      { name: "label", xpath: "//*[@aria-label='{value}']" },
      { name: "sku", css: '[data-sku="{value}"]', attribute: "data-sku" },
    ],
  };
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify(side));
  return path;
}

/** The lines of the test named `name` in the CLI's output: its own, and the indented ones under it. */
function linesOf(stdout: string, name: string): string[] {
  const lines = stdout.split("\n");
  const at = lines.findIndex((line) => new RegExp(`^\\S+\\s+${name}\\s`).test(line));
  if (at < 0) return [];
  const out = [lines[at]];
  for (const line of lines.slice(at + 1)) {
    if (!line.startsWith("        ")) break;
    out.push(line);
  }
  return out;
}

describe("npm run play with a project's declared locator strategies", () => {
  it("plays them in the page, heals a stale one by a declared alternative shown as written, and fails an undeclared one naming it", async () => {
    const played = await playCli([project("devtools.side", ["buys", "heals", "undeclared"])], dir);
    expect(played.code, played.stdout + played.stderr).toBe(1);
    expect(linesOf(played.stdout, "buys")[0]).toMatch(/^passed\s+buys/);
    expect(linesOf(played.stdout, "heals")).toEqual([expect.stringMatching(/^passed\s+heals/), "        healed  #2 click: qa=buy -> label=Buy now (score 1.00)"]);
    const undeclared = linesOf(played.stdout, "undeclared");
    expect(undeclared[0]).toMatch(/^failed\s+undeclared/);
    expect(undeclared[1]).toMatch(/failed at click "nope=buy": .*unknown strategy "nope".*no plugin has declared it/);
    expect(played.stdout).toMatch(/3 tests: 2 passed, 1 failed, 0 fatal, 1 healed/);
  }, 120_000);

  it("gives an element relocated by its fingerprint a locator in a declared strategy when it carries the strategy's attribute", async () => {
    const played = await playCli([project("relocates.side", ["relocates"])], dir);
    expect(played.code, played.stdout + played.stderr).toBe(0);
    expect(linesOf(played.stdout, "relocates")[1]).toMatch(/^ {8}healed {2}#2 click: id=buy -> sku=BUY-1 \(score 0\.\d\d\)$/);
  }, 120_000);

  it("plays them through --executor webdriver, and fails an undeclared one with the same words", async () => {
    const played = await playCli([project("webdriver.side", ["buys", "undeclared"]), "--executor", "webdriver"], dir);
    expect(played.code, played.stdout + played.stderr).toBe(1);
    expect(linesOf(played.stdout, "buys")[0]).toMatch(/^passed\s+buys/);
    expect(linesOf(played.stdout, "undeclared")[1]).toMatch(/failed at click "nope=buy": .*unknown strategy "nope".*no plugin has declared it/);
  }, 120_000);

  it("plays them through a Selenium Grid", async () => {
    const grid = await startGrid({ standalone: true, maxSessions: 1 });
    try {
      const played = await playCli([project("grid.side", ["buys"]), "--webdriver-url", grid.url], dir);
      expect(played.code, played.stdout + played.stderr).toBe(0);
      expect(linesOf(played.stdout, "buys")[0]).toMatch(/^passed\s+buys/);
    } finally {
      await grid.stop();
    }
  }, 240_000);
});
