import { LocatorError } from "./errors.ts";
import { selectsOnly } from "./dom.ts";

/** Tried in this order after `id` (CONTRACT section 6). */
const OTHER_ATTRIBUTES = [
  "name", "data-testid", "data-test", "data-qa", "data-cy",
  "aria-label", "placeholder", "title", "alt", "value", "type",
];
const HTML_NS = "http://www.w3.org/1999/xhtml";
const TEXT_NODE = 3;

/** An XPath 1.0 string literal for `value`; XPath has no escapes, so a value with a `'` becomes concat(). */
export function xpathLiteral(value: string): string {
  if (!value.includes("'")) return `'${value}'`;
  // Runs of single quotes go in double quotes, everything else in single quotes.
  const parts = value.match(/'+|[^']+/g)!.map((run) => (run[0] === "'" ? `"${run}"` : `'${run}'`));
  if (parts.length === 1) parts.push("''"); // concat() needs two arguments
  return `concat(${parts.join(",")})`;
}

/** The most readable xpath that selects exactly `el` in its own document (CONTRACT section 6). */
export function buildXPath(el: Element): string {
  for (const candidate of candidates(el)) {
    if (selectsOnly(el, candidate)) return candidate;
  }
  throw new LocatorError("ElementNotFound", `The element <${el.localName}> is not in its document, so no xpath selects it.`);
}

function* candidates(el: Element): Generator<string> {
  const id = el.getAttribute("id");
  if (id) yield byAttribute(el, "id", id);
  for (const name of OTHER_ATTRIBUTES) {
    const value = el.getAttribute(name);
    if (value) yield byAttribute(el, name, value);
  }
  if (el.localName === "a") {
    // contains(text(), ...) reads the first text child only, so that is the text used.
    const text = Array.from(el.childNodes).find((n) => n.nodeType === TEXT_NODE)?.textContent?.trim();
    if (text) yield `//${nameTest(el)}[contains(text(),${xpathLiteral(text)})]`;
  }
  for (let anchor = el.parentElement; anchor; anchor = anchor.parentElement) {
    const anchorId = anchor.getAttribute("id");
    if (anchorId && selectsOnly(anchor, byAttribute(anchor, "id", anchorId))) {
      yield `${byAttribute(anchor, "id", anchorId)}/${steps(el, anchor)}`;
      break;
    }
  }
  yield `/${steps(el, null)}`;
  // Last resort for names no name test can match (e.g. a tag name holding a colon). jsdom's engine
  // misreads (//*)[n] as //*[n], so there it fails the check; real browsers evaluate it right.
  const index = Array.from(el.ownerDocument.getElementsByTagName("*")).indexOf(el);
  if (index >= 0) yield `(//*)[${index + 1}]`;
}

function byAttribute(el: Element, name: string, value: string): string {
  return `//${nameTest(el)}[@${name}=${xpathLiteral(value)}]`;
}

/** The location steps from `top` (exclusive; null for the document) down to `el`. */
function steps(el: Element, top: Element | null): string {
  const out: string[] = [];
  for (let node: Element | null = el; node && node !== top; node = node.parentElement) {
    const test = nameTest(node);
    const same = node.parentNode ? Array.from(node.parentNode.children).filter((s) => nameTest(s) === test) : [node];
    out.unshift(same.length > 1 ? `${test}[${same.indexOf(node) + 1}]` : test);
  }
  return out.join("/");
}

// A bare name matches an HTML element only in an HTML document, and otherwise only an element
// with no namespace (XPath 1.0 has no default namespace); anything else is matched by local-name(.),
// spelled with the "." because jsdom's engine fails on local-name() with no argument.
function nameTest(el: Element): string {
  const plain = el.namespaceURI === null || (el.namespaceURI === HTML_NS && el.ownerDocument.contentType === "text/html");
  return plain ? el.localName : `*[local-name(.)=${xpathLiteral(el.localName)}]`;
}
