// Chrome Recorder's `aria/NAME` and `text/TEXT` selectors (puppeteer's accessibility and text
// queries) as the closest xpaths the players play: no player computes accessible names, so the
// name is looked for where a page most often puts it (aria-label, alt, title, placeholder, an
// input's value, its label, the element's own text) and the role among the elements that have
// it implicitly (button, link, textbox, checkbox, radio, combobox, heading, img) or say it.
import { xpathLiteral } from "../locators/xpath.ts";

// Most names hold single spaces only: those need no new string.
const normalise = (text: string) => (/\s\s|[^\S ]|^ | $/.test(text) ? text.replace(/\s+/g, " ").trim() : text);

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

// An element named by a literal (an attribute, a label, its own text) as the text between the
// literal's places, joined with it so a long locator is built in one go.
const NAMED_BY = [
  "@aria-label=", " or @alt=", " or @title=", " or @placeholder=", " or self::input[@value=",
  "] or @id=//label[normalize-space(.)=",
  "]/@for or (self::input or self::select or self::textarea) and ancestor::label[normalize-space(.)=",
];
const BETWEEN = NAMED_BY.slice(1);
// With a role: the predicate after the role's condition.
const NAMED = [`[${NAMED_BY[0]}`, ...BETWEEN, "] or normalize-space(.)=", "]"];
// Without: the deepest element so named (its own text, not the ancestors that hold it); a
// <label>'s text names its control, not the label (as in the accessibility tree).
const DEEPEST = [`xpath=//body//*[${NAMED_BY[0]}`, ...BETWEEN, "] or (not(self::label) and normalize-space(.)=", " and not(.//*[normalize-space(.)=", "]))]"];
// `text/`: the deepest element whose text holds the literal.
const TEXT = ["xpath=//body//*[not(self::script or self::style)][contains(normalize-space(.), ", ")][not(.//*[contains(normalize-space(.), ", ")])]"];
const ROLE = /^(.*)\[role="([^"\]]+)"\]$/;

/**
 * `aria/NAME` or `aria/NAME[role="ROLE"]` as an `xpath=` locator: with a role, the element of
 * that role named NAME; without, the deepest element named NAME (its own text, so not the
 * ancestors that hold it). Null for no name and no role.
 */
export function ariaLocator(query: string): string | null {
  const withRole = query.endsWith('"]') ? ROLE.exec(query) : null;
  const name = normalise(withRole ? withRole[1] : query);
  if (name === "" && !withRole) return null;
  const literal = xpathLiteral(name);
  if (!withRole) return DEEPEST.join(literal);
  const role = `xpath=//*[${roleCondition(withRole[2])}]`;
  return name === "" ? role : role + NAMED.join(literal);
}

/** `text/TEXT` as an `xpath=` locator: the deepest element whose text holds TEXT (whitespace collapsed), as puppeteer's text query picks it. */
export function textLocator(query: string): string | null {
  const text = normalise(query);
  return text === "" ? null : TEXT.join(xpathLiteral(text));
}
