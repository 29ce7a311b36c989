// "Find target in page" and the alternative locators' counts (CONTRACT section 21), run inside
// the page under test: the host bundles this file and runs it through WebDriver
// (drivers/host/findInPage.ts), the extension's content script imports it. The matches are
// the player's own (drivers/player/find.ts: parseTarget, matchesOf), so a count is what a
// command with that target would choose from. The outline is one element of its own on the
// document's root, drawn over the first match for OUTLINE_MS: it takes no pointer events (a
// click on it reaches the element under it, so the recorder never sees it), is hidden from
// assistive technology, is left out of every count, and the next Find replaces it.
import { messageOf } from "../../services/errors.ts";
import { matchesOf, parseTarget } from "../player/find.ts";

export const OUTLINE_TAG = "ide-core-outline";
export const OUTLINE_MS = 2000;

/** A count of matches (`shown`: the first has a box on the page), or why there is none to count. */
export type FindAnswer =
  | { ok: true; count: number; shown: boolean }
  | { ok: false; errorCode: "InvalidLocator" | "NoPage" | "ElementNotFound"; error: string };

/** How many elements `location` matches in `doc` now, the first outlined when `outline` says so. */
export function findInDocument(doc: Document, location: string, outline: boolean): FindAnswer {
  let matches: Element[];
  try {
    matches = matchesOf(doc, parseTarget(location)).filter((el) => el.localName !== OUTLINE_TAG);
  } catch (error) {
    return { ok: false, errorCode: "InvalidLocator", error: messageOf(error) };
  }
  const first = matches[0];
  const shown = first !== undefined && hasBox(first);
  if (outline) drawOutline(doc, shown ? first : null);
  return { ok: true, count: matches.length, shown };
}

function hasBox(el: Element): boolean {
  const rect = el.getBoundingClientRect();
  return rect.width > 0 || rect.height > 0;
}

const important = (style: Record<string, string>) =>
  Object.entries(style)
    .map(([name, value]) => `${name}:${value} !important`)
    .join(";");

/** One outline at a time: the last Find's, over `el` (none when null), gone after OUTLINE_MS. */
function drawOutline(doc: Document, el: Element | null): void {
  for (const old of Array.from(doc.getElementsByTagName(OUTLINE_TAG))) old.remove();
  const win = doc.defaultView;
  if (!el || !win || !doc.documentElement) return;
  el.scrollIntoView({ block: "nearest", inline: "nearest" });
  const rect = el.getBoundingClientRect();
  const box = doc.createElement(OUTLINE_TAG);
  box.setAttribute("aria-hidden", "true");
  // Absolute on the root, so it scrolls with the element; !important against the page's own rules.
  box.setAttribute(
    "style",
    important({
      display: "block",
      position: "absolute",
      left: `${rect.left + win.scrollX}px`,
      top: `${rect.top + win.scrollY}px`,
      width: `${rect.width}px`,
      height: `${rect.height}px`,
      margin: "0",
      padding: "0",
      border: "0",
      "box-sizing": "border-box",
      outline: "3px solid #e8590c",
      "outline-offset": "1px",
      background: "rgba(232, 89, 12, 0.18)",
      "pointer-events": "none",
      "z-index": "2147483647",
    }),
  );
  doc.documentElement.appendChild(box);
  win.setTimeout(() => box.remove(), OUTLINE_MS);
}
