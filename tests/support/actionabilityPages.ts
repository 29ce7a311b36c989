// Actionability (issue 27): pages where an element is there but cannot take the action yet
// (disabled, under a spinner, sliding in, hopping about, an aria-disabled widget), and the cases
// that act on them as recorded, with no waitFor in between. Only the one player waits for these
// (drivers/player/actionable.ts): side-runtime's WebDriver executor and the exported
// code act at once, so they are played by the player in the host, through a Grid and in the
// extension, not by `--executor webdriver` nor exported. Each page settles after SETTLE_MS.
import type { PlayerKind } from "../../drivers/host/browserPage.ts";
import { TORTURE_CASES } from "./torturePage.ts";
import type { TortureCase, TortureCommand } from "./torturePage.ts";

export const SETTLE_MS = 700;

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}<p id="out"></p>
<script>const show = (text) => (document.getElementById("out").textContent = text);</script></body></html>`;

export const ACTIONABILITY_PAGES: Record<string, string> = {
  "/a/enable-late": page(
    "Enabled late",
    `<button id="save" disabled onclick="show('saved')">Save</button>
<script>setTimeout(() => (document.getElementById("save").disabled = false), ${SETTLE_MS});</script>`,
  ),
  // Enabled so late that a click sent at once (WebDriver's, or the player's without its waits) comes before it.
  "/a/enable-later": page(
    "Enabled later",
    `<button id="save" disabled onclick="show('saved')">Save</button>
<script>setTimeout(() => (document.getElementById("save").disabled = false), 4000);</script>`,
  ),
  "/a/spinner": page(
    "Spinner",
    `<div style="position: relative; width: 200px"><button id="pay" onclick="show('paid')">Pay</button>
<div id="spinner" style="position: absolute; inset: -10px; background: rgba(0, 0, 0, 0.5)"></div></div>
<script>setTimeout(() => document.getElementById("spinner").remove(), ${SETTLE_MS});</script>`,
  ),
  "/a/slide": page(
    "Slide",
    // Sliding from its first frame: a panel that starts to move later looks still until it does, to any player.
    `<style>@keyframes slide-in { from { transform: translateX(600px); } to { transform: none; } } #panel { animation: slide-in ${SETTLE_MS}ms linear both; }</style>
<div id="panel"><button id="go" onclick="show('went')">Go</button></div>`,
  ),
  "/a/hop": page(
    "Hop",
    `<button id="hop" style="position: absolute; left: 0; top: 40px; width: 24px; height: 24px; padding: 0" onclick="show('hopped')">h</button>
<script>
const hop = document.getElementById("hop");
const started = performance.now();
const step = () => {
  const t = performance.now() - started;
  hop.style.left = Math.min(t, ${SETTLE_MS}) / 2 + "px";
  if (t < ${SETTLE_MS}) requestAnimationFrame(step);
};
requestAnimationFrame(step);
</script>`,
  ),
  "/a/aria": page(
    "Aria",
    `<div id="next" role="button" tabindex="0" aria-disabled="true" onclick="if (this.getAttribute('aria-disabled') !== 'true') show('next')">Next</div>
<script>setTimeout(() => document.getElementById("next").setAttribute("aria-disabled", "false"), ${SETTLE_MS});</script>`,
  ),
  "/a/type-late": page(
    "Typed late",
    `<input id="name" disabled>
<script>setTimeout(() => (document.getElementById("name").disabled = false), ${SETTLE_MS});</script>`,
  ),
  // The page moves the button down just as the pointer comes (a late banner inserted above it at
  // the first mouse move): a click sent at the point the player saw lands on the banner.
  "/a/shift": page(
    "Shift",
    `<div id="slot"></div><button id="buy" onclick="show(document.getElementById('out').textContent + 'bought;')">Buy</button>
<script>
document.addEventListener("mousemove", () => {
  const banner = Object.assign(document.createElement("div"), { id: "banner", textContent: "Sale!" });
  banner.style.height = "120px";
  banner.addEventListener("click", () => show(document.getElementById("out").textContent + "banner;"));
  document.getElementById("slot").append(banner);
}, { once: true });
</script>`,
  ),
  // Never ready: the failures.
  "/a/never": page(
    "Never",
    `<style>@keyframes roam { from { transform: none; } to { transform: translateX(300px); } } #roam { animation: roam 1s linear infinite; }</style>
<button id="off" disabled>Off</button>
<div style="position: relative; width: 200px; margin: 20px 0"><button id="under">Under</button><div id="cover" style="position: absolute; inset: -10px; background: #ccc"></div></div>
<button id="roam">Roam</button>`,
  ),
};

const c = (command: string, target = "", value = ""): TortureCommand => ({ command, target, value });
const actedOn = (path: string, commands: TortureCommand[], out?: string): TortureCommand[] => [
  c("open", path),
  ...commands,
  ...(out ? [c("assertText", "id=out", out)] : []),
];

export const ACTIONABILITY_CASES: TortureCase[] = [
  { name: "clicks a button the page enables late, with no wait in the test", commands: actedOn("/a/enable-late", [c("click", "id=save")], "saved") },
  { name: "clicks a button once the spinner on top of it goes", commands: actedOn("/a/spinner", [c("click", "id=pay")], "paid") },
  { name: "clicks a button in a panel sliding in, once it stops", commands: actedOn("/a/slide", [c("click", "id=go")], "went") },
  { name: "clicks a small button that hops about, once it stops", commands: actedOn("/a/hop", [c("click", "id=hop")], "hopped") },
  { name: "clicks a widget once it is no longer aria-disabled", commands: actedOn("/a/aria", [c("click", "id=next")], "next") },
  { name: "clicks a button the page pushes down as the pointer comes, and not the banner that took its place", commands: actedOn("/a/shift", [c("click", "id=buy")], "bought;") },
  { name: "types into a field the page enables late", commands: actedOn("/a/type-late", [c("type", "id=name", "Ada"), c("assertValue", "id=name", "Ada")]) },
];

/** The cases each of the host's players plays: the player also these, which only it waits for. */
export const casesOf = (player: PlayerKind): TortureCase[] => (player === "devtools" ? [...TORTURE_CASES, ...ACTIONABILITY_CASES] : TORTURE_CASES);
