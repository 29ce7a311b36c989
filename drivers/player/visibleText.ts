// An element's text as WebDriver's getText reads it through chromedriver (Selenium's
// bot.dom.getVisibleText), which is what "Assert text" records and assertText compares: not
// innerText. It walks the DOM, shadow trees included, taking the text nodes of shown elements
// only (so a visible child of a hidden element still counts), with line breaks around blocks and
// at <br>, a space after each table cell, white space collapsed unless `pre`/`pre-wrap`, and the
// element's text-transform applied; ::before/::after content and form values are not text.
// The rules are learned from Selenium's atoms and measured against chromedriver in
// tests/browser/gettext.browser.test.ts; where they differ from what the eye sees, they follow
// chromedriver, since a recorded check must pass when Selenium plays it.
import { isShown, Reading } from "./shown.ts";

/** Displays whose text runs on the current line; any other display starts and ends a line. */
const INLINE_DISPLAYS = new Set(["inline", "inline-block", "inline-table", "none", "table-cell", "table-column", "table-column-group"]);

// Selenium capitalises a Latin letter that starts a word, a word being letters, digits, _ and '
// (so "o'neil" stays "O'neil" and "x_y" "X_y"), and the letter after a _ or * that starts one.
// Other scripts are left as they are: chromedriver does not capitalise them (Selenium's trunk has
// since learned to, so a later chromedriver may).
const LATIN = "A-Za-z\\u00C0-\\u02AF\\u1E00-\\u1EFF";
const WORD = `'_0-9${LATIN}\\u24B6-\\u24E9`;
const STARTS_WORD = new RegExp(`(^|[^${WORD}\\u0300-\\u036F\\u1AB0-\\u1AFF\\u1DC0-\\u1DFF])([${LATIN}\\u24B6-\\u24E9])`, "g");
const STARTS_MARKED_WORD = new RegExp(`(^|[^${WORD}])([_*])([${LATIN}\\u24D0-\\u24E9])`, "g");

function transform(text: string, textTransform: string | null): string {
  if (textTransform === "uppercase") return text.toUpperCase();
  if (textTransform === "lowercase") return text.toLowerCase();
  if (textTransform !== "capitalize") return text;
  return text
    .replace(STARTS_WORD, (_, before: string, letter: string) => before + letter.toUpperCase())
    .replace(STARTS_MARKED_WORD, (_, before: string, mark: string, letter: string) => before + mark + letter.toUpperCase());
}

/** The text being built: lines, the last one open. */
type Lines = string[];
const openLine = (lines: Lines): string => lines[lines.length - 1] ?? "";

function appendText(node: Text, lines: Lines, whiteSpace: string | null, textTransform: string | null): void {
  // Zero-width characters go first, so the zero-width space is not read as a space.
  let text = (node.nodeValue ?? "").replace(/[\u200b\u200e\u200f]/g, "").replace(/\r\n?/g, "\n");
  if (whiteSpace === "normal" || whiteSpace === "nowrap") text = text.replace(/\n/g, " ");
  // Kept spaces become non-breaking so the trimming at the end spares them; they turn back into spaces after it.
  text = whiteSpace === "pre" || whiteSpace === "pre-wrap" ? text.replace(/[ \f\t\v\u2028\u2029]/g, "\u00a0") : text.replace(/[ \f\t\v\u2028\u2029]+/g, " ");
  text = transform(text, textTransform);
  const line = lines.pop() ?? "";
  lines.push(line + (line.endsWith(" ") && text.startsWith(" ") ? text.slice(1) : text));
}

function appendElement(reading: Reading, el: Element, lines: Lines): void {
  // A shadow tree's own text reads first, in the host's white space and case, whatever the host's place in its line.
  const root = el.shadowRoot;
  if (root) {
    const whiteSpace = styleOrNull(reading, el, "white-space");
    const textTransform = styleOrNull(reading, el, "text-transform");
    for (const node of root.childNodes) appendComposed(reading, node, lines, true, whiteSpace, textTransform);
  }
  if (el.localName === "br") {
    lines.push("");
    return;
  }
  const display = reading.style(el, "display");
  const isCell = el.localName === "td" || display === "table-cell";
  const isBlock = el.localName !== "td" && !INLINE_DISPLAYS.has(display);
  if (isBlock && openLine(lines).trim() !== "") lines.push("");
  // An element not shown adds none of its own text, but a child can be shown (visibility: visible under hidden).
  const shown = isShown(el, reading);
  const whiteSpace = shown ? styleOrNull(reading, el, "white-space") : null;
  const textTransform = shown ? styleOrNull(reading, el, "text-transform") : null;
  for (const node of el.childNodes) {
    // A light child a slot shows is read where the slot is.
    if (root && (node as Element | Text).assignedSlot) continue;
    appendComposed(reading, node, lines, shown, whiteSpace, textTransform);
  }
  const line = openLine(lines);
  // Cells are set apart by a space (innerText uses a tab).
  if (isCell && line !== "" && !line.endsWith(" ")) lines[lines.length - 1] = line + " ";
  if (isBlock && line.trim() !== "") lines.push("");
}

function appendComposed(reading: Reading, node: Node, lines: Lines, shown: boolean, whiteSpace: string | null, textTransform: string | null): void {
  if (node.nodeType === 3) {
    if (shown) appendText(node as Text, lines, whiteSpace, textTransform);
    return;
  }
  if (node.nodeType !== 1) return;
  const el = node as Element;
  if (el.localName === "slot" && el.getRootNode().nodeType === 11) {
    // A slot reads what is assigned to it, or its own fallback content, in its parent's style.
    const assigned = (el as HTMLSlotElement).assignedNodes();
    for (const child of assigned.length > 0 ? assigned : Array.from(el.childNodes)) appendComposed(reading, child, lines, shown, whiteSpace, textTransform);
    return;
  }
  appendElement(reading, el, lines);
}

// Without layout (jsdom) a computed white-space can be empty; it means the initial value.
function styleOrNull(reading: Reading, el: Element, property: string): string | null {
  const value = reading.style(el, property);
  if (value) return value;
  return property === "white-space" && !reading.layout ? "normal" : null;
}

/** Each line trimmed (but for non-breaking spaces, which then become spaces), the whole trimmed again. */
function joinLines(lines: Lines): string {
  const trim = (s: string) => s.replace(/^[^\S\u00a0]+|[^\S\u00a0]+$/g, "");
  return trim(lines.map(trim).join("\n")).replace(/\u00a0/g, " ");
}

/** WebDriver's element text (see the top of this file). */
export function seleniumText(el: Element): string {
  const lines: Lines = [];
  appendElement(new Reading(el.ownerDocument), el, lines);
  return joinLines(lines);
}
