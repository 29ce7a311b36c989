// The names of the locator builders (builders.ts) and the defaults of the project's recording
// settings (CONTRACT section 18), apart from the builders themselves: the .side schema and the
// IDE page read them without the DOM code.

/** Selenium IDE v3's twelve builders, in v3's order (CONTRACT section 14). */
export const V3_BUILDER_ORDER = [
  "css:data-attr",
  "id",
  "linkText",
  "name",
  "css:finder",
  "xpath:link",
  "xpath:img",
  "xpath:attributes",
  "xpath:idRelative",
  "xpath:href",
  "xpath:position",
  "xpath:innerText",
] as const;

/** The builders beyond v3's (stableBuilders.ts). */
export const STABLE_BUILDERS = ["css:testId", "css:aria-label", "xpath:label", "xpath:text"] as const;

export type BuilderName = (typeof V3_BUILDER_ORDER)[number] | (typeof STABLE_BUILDERS)[number];

/**
 * The order of recorded targets when the project sets none (CONTRACT section 18): test ids,
 * then the names a page gives (id, aria-label, label, name, a link's text as linkText, a
 * button's or link's own text), css,
 * xpaths by what the element holds, and the positional xpaths last.
 */
export const DEFAULT_LOCATOR_ORDER: readonly BuilderName[] = [
  "css:testId", "css:data-attr", "id", "css:aria-label", "xpath:label", "name", "linkText", "xpath:text",
  "css:finder", "xpath:link", "xpath:img", "xpath:attributes", "xpath:href", "xpath:innerText",
  "xpath:idRelative", "xpath:position",
];

/** Every builder's name, in the default order. */
export const BUILDER_NAMES: readonly BuilderName[] = DEFAULT_LOCATOR_ORDER;

/** The test-id attributes the css:testId builder tries, in this order, when the project names none. */
export const DEFAULT_TEST_ID_ATTRIBUTES: readonly string[] = ["data-testid", "data-test", "data-test-id", "data-qa", "data-cy"];
