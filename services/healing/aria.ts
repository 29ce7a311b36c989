// An element's role and accessible name by simple rules (a subset of the ARIA and HTML-AAM
// rules: explicit role, then the implicit role of common tags; aria-labelledby, aria-label,
// a form control's label, alt, its text, title, placeholder), and a control's label text.
// Enough to tell elements apart for relocation, not an accessibility checker. DOM-only.
import { normalizeText, textOf } from "./text.ts";

const IMPLICIT_ROLES: Record<string, string> = {
  button: "button", nav: "navigation", main: "main", header: "banner", footer: "contentinfo",
  aside: "complementary", form: "form", ul: "list", ol: "list", li: "listitem", table: "table",
  tr: "row", td: "cell", th: "columnheader", textarea: "textbox", option: "option", img: "img",
  h1: "heading", h2: "heading", h3: "heading", h4: "heading", h5: "heading", h6: "heading",
  dialog: "dialog", progress: "progressbar", summary: "button", details: "group", fieldset: "group",
};

const INPUT_ROLES: Record<string, string> = {
  button: "button", submit: "button", reset: "button", image: "button", checkbox: "checkbox",
  radio: "radio", range: "slider", number: "spinbutton", search: "searchbox",
};

/** The explicit role, else the implicit role of its tag (and type), else undefined. */
export function roleOf(el: Element): string | undefined {
  const explicit = el.getAttribute("role")?.trim().split(/\s+/)[0];
  if (explicit) return explicit.toLowerCase();
  const tag = el.localName.toLowerCase();
  if (tag === "a" || tag === "area") return el.hasAttribute("href") ? "link" : undefined;
  if (tag === "input") {
    const type = (el.getAttribute("type") ?? "text").toLowerCase();
    if (type === "hidden") return undefined;
    return INPUT_ROLES[type] ?? "textbox";
  }
  if (tag === "select") return el.hasAttribute("multiple") ? "listbox" : "combobox";
  return IMPLICIT_ROLES[tag];
}

const LABELABLE = new Set(["input", "select", "textarea", "button", "meter", "output", "progress"]);

/** A form control's <label> text: the labels that name it (for=, or wrapping it), without the control's own text. */
export function labelTextOf(el: Element): string | undefined {
  if (!LABELABLE.has(el.localName.toLowerCase())) return undefined;
  const labels = (el as HTMLInputElement).labels;
  const list: Element[] = labels ? Array.from(labels) : [];
  if (list.length === 0) {
    const wrapping = el.closest("label");
    if (wrapping) list.push(wrapping);
    const id = el.getAttribute("id");
    const root = el.getRootNode() as Document | ShadowRoot;
    if (id && typeof root.querySelectorAll === "function") {
      for (const label of Array.from(root.querySelectorAll("label[for]"))) {
        if (label.getAttribute("for") === id && !list.includes(label)) list.push(label);
      }
    }
  }
  const own = el.localName === "select" || el.localName === "textarea" ? normalizeText(el.textContent ?? "") : "";
  const text = normalizeText(list.map((label) => {
    const all = textOf(label);
    return own && all.includes(own) ? all.replace(own, " ") : all;
  }).join(" "));
  return text || undefined;
}

/** The name a screen reader announces, by the simple rules above; undefined when it has none. */
export function accessibleNameOf(el: Element): string | undefined {
  const labelledBy = el.getAttribute("aria-labelledby");
  if (labelledBy) {
    const root = el.getRootNode() as Document | ShadowRoot;
    const parts = labelledBy.split(/\s+/).map((id) => {
      const target = typeof root.getElementById === "function" ? root.getElementById(id) : null;
      return target ? textOf(target) : "";
    });
    const text = normalizeText(parts.join(" "));
    if (text) return text;
  }
  const label = normalizeText(el.getAttribute("aria-label") ?? "");
  if (label) return label;
  const tag = el.localName.toLowerCase();
  if (LABELABLE.has(tag) && tag !== "button") {
    const text = labelTextOf(el);
    if (text) return text;
  }
  if (tag === "img" || (tag === "input" && el.getAttribute("type") === "image")) {
    const alt = normalizeText(el.getAttribute("alt") ?? "");
    if (alt) return alt;
  }
  const role = roleOf(el);
  if (tag === "button" || tag === "a" || role === "button" || role === "link" || role === "heading" || role === "tab" || role === "menuitem" || role === "option" || role === "cell" || role === "columnheader") {
    const text = textOf(el);
    if (text) return text;
  }
  return normalizeText(el.getAttribute("title") ?? el.getAttribute("placeholder") ?? "") || undefined;
}
