// Keys between Chrome Recorder's keyDown/keyUp steps (puppeteer's key names) and a sendKeys
// value (Selenium IDE's `${KEY_X}` variables and plain characters). The names are
// selenium-webdriver's `Key` with v3's `KEY_` prefix, as the players read them
// (drivers/player/keys.ts holds their code points; this room names them only).

/** Puppeteer's key name → the `KEY_` variable a sendKeys value writes for it. */
const NAMED: Readonly<Record<string, string>> = {
  Enter: "KEY_ENTER", NumpadEnter: "KEY_ENTER", "\r": "KEY_ENTER", "\n": "KEY_ENTER",
  Tab: "KEY_TAB", Backspace: "KEY_BACK_SPACE", Escape: "KEY_ESCAPE", Delete: "KEY_DELETE",
  Insert: "KEY_INSERT", Home: "KEY_HOME", End: "KEY_END", PageUp: "KEY_PAGE_UP", PageDown: "KEY_PAGE_DOWN",
  ArrowLeft: "KEY_LEFT", ArrowUp: "KEY_UP", ArrowRight: "KEY_RIGHT", ArrowDown: "KEY_DOWN",
  Pause: "KEY_PAUSE", Help: "KEY_HELP", Clear: "KEY_CLEAR", Cancel: "KEY_CANCEL",
  Shift: "KEY_SHIFT", ShiftLeft: "KEY_SHIFT", ShiftRight: "KEY_SHIFT",
  Control: "KEY_CONTROL", ControlLeft: "KEY_CONTROL", ControlRight: "KEY_CONTROL",
  Alt: "KEY_ALT", AltLeft: "KEY_ALT", AltRight: "KEY_ALT",
  Meta: "KEY_META", MetaLeft: "KEY_META", MetaRight: "KEY_META",
  NumpadMultiply: "KEY_MULTIPLY", NumpadAdd: "KEY_ADD", NumpadSubtract: "KEY_SUBTRACT",
  NumpadDecimal: "KEY_DECIMAL", NumpadDivide: "KEY_DIVIDE", NumpadEqual: "KEY_EQUALS",
  ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`F${i + 1}`, `KEY_F${i + 1}`])),
  ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`Numpad${i}`, `KEY_NUMPAD${i}`])),
};

/** Key codes that stand for one character (puppeteer takes `KeyA` and `a` alike). */
const CODE_CHARACTERS: Readonly<Record<string, string>> = {
  Space: " ", Semicolon: ";", Equal: "=", Comma: ",", Minus: "-", Period: ".", Slash: "/",
  Backquote: "`", BracketLeft: "[", Backslash: "\\", BracketRight: "]", Quote: "'",
};

/** The `KEY_` variables that hold a modifier down until pressed again (WebDriver's rule). */
export const MODIFIER_VARIABLES: ReadonlySet<string> = new Set(["KEY_SHIFT", "KEY_CONTROL", "KEY_ALT", "KEY_META", "KEY_COMMAND"]);

/** What a sendKeys value writes for a key: `{ variable }` or `{ text }`; null for a key it has no way to say. */
export function keyToToken(key: string): { variable: string } | { text: string } | null {
  if (Object.hasOwn(NAMED, key)) return { variable: NAMED[key] };
  if (/^Key[A-Z]$/.test(key)) return { text: key.slice(3).toLowerCase() };
  if (/^Digit[0-9]$/.test(key)) return { text: key.slice(5) };
  if (Object.hasOwn(CODE_CHARACTERS, key)) return { text: CODE_CHARACTERS[key] };
  if ([...key].length === 1 && key !== "\u0000") return { text: key };
  return null;
}

/** Puppeteer's name for a `KEY_` variable (the first of NAMED's keys that writes it), or null. */
export function variableToKey(variable: string): string | null {
  if (variable === "KEY_ARROW_LEFT") return "ArrowLeft";
  if (variable === "KEY_ARROW_UP") return "ArrowUp";
  if (variable === "KEY_ARROW_RIGHT") return "ArrowRight";
  if (variable === "KEY_ARROW_DOWN") return "ArrowDown";
  if (variable === "KEY_RETURN") return "Enter";
  if (variable === "KEY_SPACE") return " ";
  if (variable === "KEY_COMMAND") return "Meta";
  for (const [key, name] of Object.entries(NAMED)) if (name === variable) return key;
  return null;
}

/** A sendKeys value split into keys in order: `${KEY_X}` variables and single characters. */
export function valueToKeys(value: string): Array<{ variable: string } | { text: string }> {
  const keys: Array<{ variable: string } | { text: string }> = [];
  const pattern = /\$\{(KEY_[A-Z0-9_]+)\}/g;
  let at = 0;
  for (const match of value.matchAll(pattern)) {
    for (const c of value.slice(at, match.index)) keys.push({ text: c });
    keys.push({ variable: match[1] });
    at = match.index + match[0].length;
  }
  for (const c of value.slice(at)) keys.push({ text: c });
  return keys;
}
