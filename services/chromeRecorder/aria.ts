// Chrome Recorder's `aria/NAME` and `text/TEXT` selectors (puppeteer's accessibility and text
// queries) as the closest xpaths the players play: no player computes accessible names, so the
// name is looked for where a page most often puts it (aria-label, alt, title, placeholder, an
// input's value, its label, the element's own text) and the role among the elements that have
// it implicitly (button, link, textbox, checkbox, radio, combobox, heading, img) or say it.
import { xpathLiteral } from "../locators/xpath.ts";

const normalise = (text: string) => text.replace(/\s+/g, " ").trim();

const IMPLICIT_ROLES: Readonly<Record<string, string>> = {
  button: "self::button or self::input[@type='button' or @type='submit' or @type='reset' or @type='image']",
  link: "self::a[@href] or self::area[@href]",
  textbox:
    "self::textarea or self::input[not(@type) or @type='text' or @type='email' or @type='tel' or @type='url' or @type='password' or @type='search']",
  checkbox: "self::input[@type='checkbox']",
  radio: "self::input[@type='radio']",
  combobox: "self::select[not(@multiple)]",
  heading: "self::h1 or self::h2 or self::h3 or self::h4 or self::h5 or self::h6",
  img: "self::img",
};

/** The xpath condition on an element that has `role`, said or implicit. */
function roleCondition(role: string): string {
  const said = `@role=${xpathLiteral(role)}`;
  return Object.hasOwn(IMPLICIT_ROLES, role) ? `${IMPLICIT_ROLES[role]} or ${said}` : said;
}

/** The xpath condition on an element whose name, given by an attribute or a label, is `literal`. */
function namedBy(literal: string): string {
  return [
    `@aria-label=${literal}`, `@alt=${literal}`, `@title=${literal}`, `@placeholder=${literal}`,
    `self::input[@value=${literal}]`,
    `@id=//label[normalize-space(.)=${literal}]/@for`,
    `(self::input or self::select or self::textarea) and ancestor::label[normalize-space(.)=${literal}]`,
  ].join(" or ");
}

/**
 * `aria/NAME` or `aria/NAME[role="ROLE"]`: with a role, the element of that role named NAME;
 * without, the deepest element named NAME (its own text, so not the ancestors that hold it).
 */
export function ariaToXPath(query: string): string | null {
  const withRole = /^(.*)\[role="([^"\]]+)"\]$/.exec(query);
  const name = normalise(withRole ? withRole[1] : query);
  if (name === "" && !withRole) return null;
  const literal = xpathLiteral(name);
  if (withRole) {
    const named = name === "" ? "" : `[${namedBy(literal)} or normalize-space(.)=${literal}]`;
    return `//*[${roleCondition(withRole[2])}]${named}`;
  }
  return `//body//*[${namedBy(literal)} or (normalize-space(.)=${literal} and not(.//*[normalize-space(.)=${literal}]))]`;
}

/** `text/TEXT`: the deepest element whose text holds TEXT (whitespace collapsed), as puppeteer's text query picks it. */
export function textToXPath(query: string): string | null {
  const text = normalise(query);
  if (text === "") return null;
  const literal = xpathLiteral(text);
  return `//body//*[not(self::script or self::style)][contains(normalize-space(.), ${literal})][not(.//*[contains(normalize-space(.), ${literal})])]`;
}
