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

/** The test-id builders: a declared strategy (CONTRACT section 23) that an order does not place comes right after them. */
export const TEST_ID_BUILDERS: readonly BuilderName[] = ["css:testId", "css:data-attr"];

/**
 * The whole order of builders for a project: the names `order` gives that are builders or the
 * names of `strategies` (the declared strategies that can be recorded), first, once each; then
 * the builders it leaves out, in the default order, with the strategies it leaves out right
 * after the later of the test-id builders. A name that is neither is left out.
 */
export function fullLocatorOrder(order: readonly string[] = [], strategies: readonly string[] = []): string[] {
  const known = new Set<string>([...DEFAULT_LOCATOR_ORDER, ...strategies]);
  const named = [...new Set(order)].filter((name) => known.has(name));
  const full: string[] = [...named, ...DEFAULT_LOCATOR_ORDER.filter((name) => !named.includes(name))];
  const after = Math.max(...TEST_ID_BUILDERS.map((name) => full.indexOf(name)));
  full.splice(after + 1, 0, ...strategies.filter((name) => !named.includes(name)));
  return full;
}

/** Every builder's name, in the default order. */
export const BUILDER_NAMES: readonly BuilderName[] = DEFAULT_LOCATOR_ORDER;

/** The test-id attributes the css:testId builder tries, in this order, when the project names none. */
export const DEFAULT_TEST_ID_ATTRIBUTES: readonly string[] = ["data-testid", "data-test", "data-test-id", "data-qa", "data-cy"];
