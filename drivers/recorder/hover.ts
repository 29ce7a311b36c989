// mouseOver before a click on an item a CSS :hover revealed (CONTRACT section 19): a menu that
// opens on `:hover` plays back only when the player first moves the pointer over the menu, so
// the recorder records `mouseOver` on the menu before the item's click.
//
// The rule, kept simple: at the click, the clicked element and each of its ancestors (R) is
// tested against the page's style rules whose selector has `:hover` and that set `display`,
// `visibility` or `opacity`. When such a selector matches R, the part of it up to and with its
// first `:hover` (`#menu:hover` of `#menu:hover .items`) names the hovered element the rule
// depends on: the nearest ancestor of R it matches is a menu that revealed R. Each such menu,
// outermost first (a submenu after its menu), gets a `mouseOver`. A rule that only restyles
// (colour, say), a `:hover` on the clicked element itself, and a stylesheet of another origin
// (its rules cannot be read) give none; a plain click on a visible button gets none.

/** The properties whose value can hide an element; a :hover rule setting one of them reveals. */
const REVEALING = ["display", "visibility", "opacity"];

/** The :hover selectors (one per comma-separated part) of the style rules that set a revealing property. */
function revealingSelectors(doc: Document): string[] {
  const selectors: string[] = [];
  const walk = (rules: CSSRuleList) => {
    for (const rule of Array.from(rules)) {
      const style = (rule as CSSStyleRule).style;
      const selectorText = (rule as CSSStyleRule).selectorText;
      if (typeof selectorText === "string" && selectorText.includes(":hover") && style && REVEALING.some((p) => style.getPropertyValue(p) !== "")) {
        for (const part of selectorText.split(",")) if (part.includes(":hover")) selectors.push(part.trim());
      }
      const nested = (rule as CSSGroupingRule).cssRules;
      if (nested) walk(nested); // @media, @supports, nesting
    }
  };
  for (const sheet of Array.from(doc.styleSheets)) {
    try {
      walk(sheet.cssRules);
    } catch {
      // a stylesheet of another origin: its rules cannot be read
    }
  }
  return selectors;
}

/** The menus whose :hover revealed `clicked` (or one of its ancestors), outermost first. */
export function hoverMenus(clicked: Element | null): Element[] {
  if (!clicked) return [];
  const selectors = revealingSelectors(clicked.ownerDocument);
  if (selectors.length === 0) return [];
  const menus: Element[] = [];
  for (let revealed: Element | null = clicked; revealed; revealed = revealed.parentElement) {
    for (const selector of selectors) {
      try {
        if (!revealed.matches(selector)) continue;
        const hovered = selector.slice(0, selector.indexOf(":hover") + ":hover".length);
        const menu = revealed.parentElement?.closest(hovered);
        if (menu && !menus.includes(menu)) menus.push(menu);
      } catch {
        // a selector `matches` does not take on its own (a :hover inside :not(...), say)
      }
    }
  }
  // Found from the clicked element up; the pointer goes over the outermost menu first.
  return menus.sort((a, b) => (a.contains(b) ? -1 : b.contains(a) ? 1 : 0));
}
