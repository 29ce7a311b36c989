// The slow app of `npm run bench -- --only flake` (issue 27): pages that make recorded tests
// flake when a player does not wait. Elements appear after 0–3 s, buttons are enabled late, a
// spinner covers the page for a while, a cookie banner comes over it, a drawer slides in with
// a CSS transition, a card is moved by script over a few hundred ms, a form post and a script's
// location change load a slower next page.
//
// Every delay comes from a seed: the page's script and the server draw each delay from
// hash(seed, path, name), so a play with the same seed sees the same page, and plays with
// different seeds differ. One app serves one lane (one browser playing one test at a time) on
// its own port; the bench sets the lane's seed before each play. With `settled: true` there is
// no delay at all: everything a page would add later is there at once and every handler acts at
// once, the app as a person saw it when recording (the consistency test plays it so).
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

/** The recorded tests of the slow app, a Selenium IDE project. */
export const FLAKE_SIDE = fileURLToPath(new URL("./flake.side", import.meta.url));

/** FNV-1a over the text, then mulberry32 once: a number in [0, 1) for (seed, path, name). */
export function draw(seed: string, path: string, name: string): number {
  let h = 0x811c9dc5;
  for (const ch of `${seed}:${path}:${name}`) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193);
  }
  let t = (h + 0x6d2b79f5) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

// The same two functions for the page (plain JavaScript: it runs in Chromium).
const PAGE_RUNTIME = `
const F = window.FLAKE;
function draw(name) {
  let h = 0x811c9dc5;
  for (const ch of F.seed + ":" + location.pathname + ":" + name) { h ^= ch.charCodeAt(0); h = Math.imul(h, 0x01000193); }
  let t = (h + 0x6d2b79f5) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
/** Runs fn after 0..max ms drawn for name; at once when settled. */
function later(name, fn, max = 3000) { if (F.settled) fn(); else setTimeout(fn, Math.floor(draw(name) * max)); }
const $ = (id) => document.getElementById(id);
function add(slot, html) { $(slot).insertAdjacentHTML("beforeend", html); }
function on(id, type, fn) { document.addEventListener(type, (e) => { if (e.target && e.target.closest && e.target.closest("#" + id)) fn(e); }); }
function say(id, text) { $(id).textContent = text; }
`;

const STYLE = `
body { font: 15px sans-serif; margin: 16px; max-width: 480px; }
button, input, select { font: inherit; margin: 4px 0; }
p { min-height: 1em; margin: 6px 0; }
.overlay { position: fixed; inset: 0; background: rgba(255,255,255,.85); z-index: 10; display: flex; align-items: center; justify-content: center; }
.spin { width: 40px; height: 40px; border: 5px solid #ccc; border-top-color: #333; border-radius: 50%; animation: spin .8s linear infinite; }
@keyframes spin { to { transform: rotate(360deg); } }
.drawer { position: fixed; top: 0; right: 0; bottom: 0; width: 260px; background: #eef; padding: 12px; transform: translateX(110%); z-index: 5; }
.drawer.open { transform: none; }
.promo { position: fixed; right: 10px; bottom: 10px; width: 220px; background: #ffd; padding: 8px; transform: translateX(130%); }
.promo.in { transform: none; }
.menu { max-height: 0; overflow: hidden; transition: max-height .5s ease; }
.menu.open { max-height: 120px; }
.menu a { display: block; padding: 4px; }
.row { position: relative; }
.toast { position: absolute; left: 0; top: 0; width: 300px; height: 40px; background: #333; color: #fff; z-index: 3; }
.banner { position: fixed; inset: 0; background: rgba(0,0,0,.5); z-index: 20; display: flex; align-items: flex-end; }
.banner div { background: #fff; width: 100%; padding: 16px; }
#mover { position: absolute; top: 380px; left: -320px; width: 200px; padding: 8px; background: #dfd; }
`;

function page(title: string, body: string, script: string, seed: string, settled: boolean): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><style>${STYLE}</style>
<script>window.FLAKE = ${JSON.stringify({ seed, settled })};</script></head><body>
${body}
<script>${PAGE_RUNTIME}
${script}</script>
</body></html>`;
}

interface PageDef {
  title: string;
  body: string;
  script: string;
}

// ---- the pages -----------------------------------------------------------------------------

const PAGES: Record<string, PageDef> = {
  "/": { title: "Slow app", body: `<h1>Slow app</h1><p>Start here.</p>`, script: "" },

  // Elements that appear after 0–3 s.
  "/late": {
    title: "Your account",
    body: `<h1>Your account</h1>
<div id="slot-greeting"></div>
<div id="slot-price"></div>
<ul id="items"></ul>
<div id="slot-more"></div><div id="slot-details"></div>
<div id="slot-form"></div><p id="late-out"></p>
<div id="slot-size"></div><p id="size-out"></p>
<div id="slot-agree"></div><p id="agree-out"></p>
<div id="slot-link"></div>
<div id="slot-footer"></div>`,
    script: `
later("greeting", () => add("slot-greeting", '<p id="greeting">Welcome back, Ada</p>'));
later("price", () => add("slot-price", '<p>Price: <span id="price">12.50</span></p>'));
// The list's items come one by one, in order.
const fruit = ["Apple", "Banana", "Cherry"];
const times = fruit.map((f) => draw("item-" + f)).sort((a, b) => a - b);
if (F.settled) fruit.forEach((f) => add("items", "<li>" + f + "</li>"));
else fruit.forEach((f, i) => setTimeout(() => add("items", "<li>" + f + "</li>"), Math.floor(times[i] * 3000)));
later("more", () => add("slot-more", '<button id="more" type="button">More details</button>'));
on("more", "click", () => later("details", () => { if (!$("details")) add("slot-details", '<p id="details">Shipping in 2 days</p>'); }));
later("form", () => add("slot-form", '<input id="late-name" placeholder="Name"> <button id="late-hello" type="button">Say hello</button>'));
on("late-hello", "click", () => say("late-out", "Hello " + $("late-name").value));
later("size", () => add("slot-size", '<select id="late-size"><option>Small</option><option>Medium</option><option>Large</option></select>'));
on("late-size", "change", () => say("size-out", "Size " + $("late-size").value));
later("agree", () => add("slot-agree", '<label><input type="checkbox" id="late-agree"> I agree</label>'));
on("late-agree", "change", () => say("agree-out", $("late-agree").checked ? "Agreed" : ""));
later("link", () => add("slot-link", '<a href="/offers">Offers</a>'));
later("footer", () => add("slot-footer", '<p id="footer-note">All prices include VAT</p>'));`,
  },
  "/offers": { title: "Offers", body: `<h1 id="offers-title">Today's offers</h1><p>Nothing today.</p>`, script: "" },

  // Controls enabled late.
  "/enable": {
    title: "Settings",
    body: `<h1>Settings</h1>
<p><button id="save" type="button" disabled>Save</button></p><p id="saved"></p>
<p><input id="email" placeholder="Email" disabled> <button id="subscribe" type="button" disabled>Subscribe</button></p><p id="subscribed"></p>
<p><select id="plan" disabled><option>Free</option><option>Pro</option><option>Team</option></select></p><p id="plan-out"></p>
<p><label><input type="checkbox" id="terms" disabled> Terms</label></p><p id="terms-out"></p>
<p><button id="step1" type="button" disabled>Step one</button> <button id="step2" type="button" disabled>Step two</button></p><p id="steps"></p>
<div id="slot-coupon"></div><p id="coupon-out"></p>`,
    script: `
for (const id of ["save", "email", "subscribe", "plan", "terms", "step1"]) later(id, () => { $(id).disabled = false; });
on("save", "click", () => say("saved", "Saved"));
on("subscribe", "click", () => say("subscribed", "Subscribed " + $("email").value));
on("plan", "change", () => say("plan-out", $("plan").value + " plan"));
on("terms", "change", () => say("terms-out", $("terms").checked ? "Terms accepted" : ""));
let stepOne = false;
on("step1", "click", () => { stepOne = true; later("step2", () => { $("step2").disabled = false; }); });
on("step2", "click", () => { if (stepOne) say("steps", "Two steps done"); });
later("coupon", () => {
  add("slot-coupon", '<input id="coupon" placeholder="Coupon" disabled> <button id="apply" type="button">Apply</button>');
  later("coupon-on", () => { $("coupon").disabled = false; }, 1500);
}, 1500);
on("apply", "click", () => say("coupon-out", "Coupon " + $("coupon").value + " applied"));`,
  },

  // A spinner over the page for a while; a toast over one button.
  "/overlay": {
    title: "Search",
    body: `<h1>Search</h1>
<p><input id="query" placeholder="Search for"> <button id="search" type="button">Search</button></p><p id="results"></p>
<p><button id="continue" type="button">Continue</button></p><p id="done"></p>
<p><button id="load-more" type="button">Load more</button> <button id="clear" type="button">Clear</button></p><div id="slot-more-results"></div><p id="cleared"></p>
<div class="row"><button id="buy" type="button">Buy</button><div id="toast" class="toast">Added to your list</div></div><p id="bought"></p>
<div id="spinner" class="overlay"><div class="spin"></div></div>`,
    script: `
const hide = (id) => { const e = $(id); if (e) e.style.display = "none"; };
if (F.settled) { hide("spinner"); hide("toast"); }
later("spinner", () => hide("spinner"));
later("toast", () => hide("toast"));
on("search", "click", () => say("results", "3 results for " + $("query").value));
on("continue", "click", () => say("done", "Continued"));
on("clear", "click", () => say("cleared", "Cleared"));
on("buy", "click", () => say("bought", "Bought"));
on("load-more", "click", () => {
  if (!F.settled) $("spinner").style.display = "flex";
  later("reload", () => { hide("spinner"); if (!$("more-results")) add("slot-more-results", '<p id="more-results">6 more results</p>'); });
});`,
  },

  // A cookie banner that comes over the page late.
  "/welcome": {
    title: "Welcome",
    body: `<h1>Welcome</h1><p><button id="start" type="button">Start</button></p><p id="started"></p><div id="slot-banner"></div>`,
    script: `
later("banner", () => add("slot-banner", '<div id="cookies" class="banner"><div>We use cookies. <button id="accept-cookies" type="button">Accept all</button></div></div>'));
on("accept-cookies", "click", () => $("cookies").remove());
on("start", "click", () => say("started", "Started"));`,
  },

  // A drawer sliding in with a CSS transition, a card moved by script, a menu opening, a promo sliding in.
  "/panel": {
    title: "Dashboard",
    body: `<h1>Dashboard</h1>
<p><button id="open-drawer" type="button">Open drawer</button> <button id="open-menu" type="button">Menu</button></p>
<nav id="menu" class="menu"><a href="#settings" id="m-settings">Settings</a><a href="#profile">Profile</a></nav><p id="menu-out"></p>
<p id="drawer-out"></p><p id="color-out"></p><p id="caught"></p><p id="promo-out"></p>
<aside id="drawer" class="drawer"><h2>Drawer</h2>
<p><input id="drawer-name" placeholder="Name"></p>
<p><select id="drawer-color"><option>Red</option><option>Blue</option></select></p>
<p><button id="drawer-ok" type="button">OK</button> <button id="drawer-save" type="button">Save</button></p></aside>
<div id="promo" class="promo">Spring sale <button id="promo-claim" type="button">Claim</button></div>
<div id="mover"><button id="catch" type="button">Catch me</button></div>`,
    script: `
const drawer = $("drawer"), promo = $("promo"), mover = $("mover");
// The transitions' lengths are drawn too: 300–800 ms.
drawer.style.transition = "transform " + (300 + Math.floor(draw("drawer-ms") * 500)) + "ms ease";
promo.style.transition = "transform " + (300 + Math.floor(draw("promo-ms") * 500)) + "ms ease";
if (F.settled) { drawer.style.transition = promo.style.transition = "none"; $("menu").style.transition = "none"; }
on("open-drawer", "click", () => drawer.classList.add("open"));
on("drawer-ok", "click", () => say("drawer-out", "Drawer OK"));
on("drawer-save", "click", () => say("drawer-out", "Saved " + $("drawer-name").value));
on("drawer-color", "change", () => say("color-out", "Colour " + $("drawer-color").value));
on("open-menu", "click", () => $("menu").classList.add("open"));
on("m-settings", "click", (e) => { e.preventDefault(); say("menu-out", "Settings opened"); });
later("promo", () => promo.classList.add("in"));
on("promo-claim", "click", () => say("promo-out", "Claimed"));
on("catch", "click", () => say("caught", "Caught"));
// The card comes in from the left, moved by script over 300–700 ms.
later("mover", () => {
  const from = -320, to = 40, ms = 300 + Math.floor(draw("mover-ms") * 400);
  if (F.settled) { mover.style.left = to + "px"; return; }
  const t0 = performance.now();
  const step = (t) => {
    const k = Math.min(1, (t - t0) / ms);
    mover.style.left = Math.round(from + (to - from) * (1 - Math.pow(1 - k, 3))) + "px";
    if (k < 1) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
});`,
  },

  // A form post that loads a slower next page.
  "/checkout": {
    title: "Checkout",
    body: `<h1>Checkout</h1>
<form method="post" action="/checkout/pay">
<p><input id="card-name" name="name" placeholder="Name on card"></p>
<p><select id="ship" name="ship"><option>Standard</option><option>Express</option></select></p>
<p><button id="pay" type="submit">Pay</button></p></form>`,
    script: "",
  },

  // A script's location change, and a link, to slower pages.
  "/go": {
    title: "Start",
    body: `<h1>Start</h1><p><button id="go-next" type="button">Next</button></p><p><a href="/slow">Slow link</a></p>`,
    script: `on("go-next", "click", () => later("nav", () => { location.href = "/next"; }, 1000));`,
  },
  "/next": {
    title: "Next",
    body: `<h1 id="next-title">Next page</h1><p><button id="next-button" type="button" disabled>Finish</button></p><p id="next-out"></p>`,
    script: `later("next-button", () => { $("next-button").disabled = false; });
on("next-button", "click", () => say("next-out", "Done"));`,
  },
  "/slow": {
    title: "Slow page",
    body: `<h1>Slow page</h1><p>Your code: <span id="slow-code">A-17</span></p>
<p><input id="slow-input" placeholder="Code"> <button id="slow-check" type="button">Check</button></p><p id="slow-out"></p>`,
    script: `on("slow-check", "click", () => say("slow-out", "Code " + $("slow-input").value + " ok"));`,
  },
};

/** Pages whose response the server holds back (0..max ms, drawn): the slower next pages. */
const SLOW_RESPONSES: Record<string, number> = { "/offers": 1500, "/next": 1500, "/slow": 1500, "/checkout/pay": 2000 };

/** The paths the app serves with GET (for the consistency test). */
export const APP_PATHS = Object.keys(PAGES);

/** The page's HTML as served with `seed` (settled: no delays). */
export function renderPage(path: string, seed: string, settled: boolean): string | null {
  const def = PAGES[path];
  return def ? page(def.title, def.body, def.script, seed, settled) : null;
}

function thanks(form: URLSearchParams, seed: string, settled: boolean): string {
  const name = form.get("name") ?? "";
  const ship = form.get("ship") ?? "Standard";
  const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const receipt = `Paid by ${escape(name)}${ship === "Standard" ? "" : `, ${escape(ship)}`}`;
  return page("Thank you", `<h1>Thank you</h1><p id="receipt">${receipt}</p>`, "", seed, settled);
}

export interface SlowApp {
  origin: string;
  /** The seed the next pages are drawn with. */
  seed: string;
  close(): Promise<void>;
}

/** Serves the slow app on 127.0.0.1 (a port of its own). */
export async function startSlowApp(options: { seed?: string; settled?: boolean } = {}): Promise<SlowApp> {
  const settled = options.settled ?? false;
  const state = { seed: options.seed ?? "0" };
  const timers = new Set<NodeJS.Timeout>();
  const hold = (path: string, respond: () => void) => {
    const max = SLOW_RESPONSES[path];
    if (settled || max === undefined) return respond();
    const timer = setTimeout(() => {
      timers.delete(timer);
      respond();
    }, Math.floor(draw(state.seed, path, "response") * max));
    timers.add(timer);
  };
  const send = (res: ServerResponse, status: number, html: string) => {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(html);
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const seed = state.seed;
    if (req.method === "POST" && path === "/checkout/pay") {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => {
        if (body.length < 10_000) body += chunk;
      });
      req.on("end", () => hold(path, () => send(res, 200, thanks(new URLSearchParams(body), seed, settled))));
      return;
    }
    const html = req.method === "GET" ? renderPage(path, seed, settled) : null;
    if (html === null) return send(res, 404, "<!doctype html><title>Not found</title><p>Not found</p>");
    hold(path, () => send(res, 200, html));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get seed() {
      return state.seed;
    },
    set seed(value: string) {
      state.seed = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
