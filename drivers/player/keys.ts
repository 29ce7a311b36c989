// WebDriver's keys as they reach the page: `${KEY_ENTER}` and the other key variables of a
// command's value are replaced by the window with WebDriver's code points (U+E000 block, as in
// selenium-webdriver's `Key`); here each code point is turned back into the key the page sees
// (`key`, `code`, the legacy `keyCode`) and the text it types, if any.

/**
 * selenium-webdriver's `Key` names with Selenium IDE's `KEY_` prefix, and no others: side-runtime
 * looks a `${KEY_X}` up in that `Key`, so a test plays the same keys in the tab as on the host.
 */
export const KEY_VARIABLES: Readonly<Record<string, string>> = Object.freeze({
  KEY_NULL: "\uE000",
  KEY_CANCEL: "\uE001",
  KEY_HELP: "\uE002",
  KEY_BACK_SPACE: "\uE003",
  KEY_TAB: "\uE004",
  KEY_CLEAR: "\uE005",
  KEY_RETURN: "\uE006",
  KEY_ENTER: "\uE007",
  KEY_SHIFT: "\uE008",
  KEY_CONTROL: "\uE009",
  KEY_ALT: "\uE00A",
  KEY_PAUSE: "\uE00B",
  KEY_ESCAPE: "\uE00C",
  KEY_SPACE: "\uE00D",
  KEY_PAGE_UP: "\uE00E",
  KEY_PAGE_DOWN: "\uE00F",
  KEY_END: "\uE010",
  KEY_HOME: "\uE011",
  KEY_ARROW_LEFT: "\uE012",
  KEY_LEFT: "\uE012",
  KEY_ARROW_UP: "\uE013",
  KEY_UP: "\uE013",
  KEY_ARROW_RIGHT: "\uE014",
  KEY_RIGHT: "\uE014",
  KEY_ARROW_DOWN: "\uE015",
  KEY_DOWN: "\uE015",
  KEY_INSERT: "\uE016",
  KEY_DELETE: "\uE017",
  KEY_SEMICOLON: "\uE018",
  KEY_EQUALS: "\uE019",
  KEY_NUMPAD0: "\uE01A",
  KEY_NUMPAD1: "\uE01B",
  KEY_NUMPAD2: "\uE01C",
  KEY_NUMPAD3: "\uE01D",
  KEY_NUMPAD4: "\uE01E",
  KEY_NUMPAD5: "\uE01F",
  KEY_NUMPAD6: "\uE020",
  KEY_NUMPAD7: "\uE021",
  KEY_NUMPAD8: "\uE022",
  KEY_NUMPAD9: "\uE023",
  KEY_MULTIPLY: "\uE024",
  KEY_ADD: "\uE025",
  KEY_SEPARATOR: "\uE026",
  KEY_SUBTRACT: "\uE027",
  KEY_DECIMAL: "\uE028",
  KEY_DIVIDE: "\uE029",
  KEY_F1: "\uE031",
  KEY_F2: "\uE032",
  KEY_F3: "\uE033",
  KEY_F4: "\uE034",
  KEY_F5: "\uE035",
  KEY_F6: "\uE036",
  KEY_F7: "\uE037",
  KEY_F8: "\uE038",
  KEY_F9: "\uE039",
  KEY_F10: "\uE03A",
  KEY_F11: "\uE03B",
  KEY_F12: "\uE03C",
  KEY_COMMAND: "\uE03D",
  KEY_META: "\uE03D",
  KEY_ZENKAKU_HANKAKU: "\uE040",
});

/** One key as the page sees it. `text` is what it types into a field; modifiers have `modifier`. */
export interface KeySpec {
  key: string;
  code: string;
  keyCode: number;
  text?: string;
  modifier?: Modifier;
}

export type Modifier = "shiftKey" | "ctrlKey" | "altKey" | "metaKey";

const NAMED: Record<number, KeySpec> = {
  0xe001: { key: "Cancel", code: "Abort", keyCode: 3 },
  0xe002: { key: "Help", code: "Help", keyCode: 6 },
  0xe003: { key: "Backspace", code: "Backspace", keyCode: 8 },
  0xe004: { key: "Tab", code: "Tab", keyCode: 9 },
  0xe005: { key: "Clear", code: "NumpadClear", keyCode: 12 },
  0xe006: { key: "Enter", code: "Enter", keyCode: 13 },
  0xe007: { key: "Enter", code: "NumpadEnter", keyCode: 13 },
  0xe008: { key: "Shift", code: "ShiftLeft", keyCode: 16, modifier: "shiftKey" },
  0xe009: { key: "Control", code: "ControlLeft", keyCode: 17, modifier: "ctrlKey" },
  0xe00a: { key: "Alt", code: "AltLeft", keyCode: 18, modifier: "altKey" },
  0xe00b: { key: "Pause", code: "Pause", keyCode: 19 },
  0xe00c: { key: "Escape", code: "Escape", keyCode: 27 },
  0xe00d: { key: " ", code: "Space", keyCode: 32, text: " " },
  0xe00e: { key: "PageUp", code: "PageUp", keyCode: 33 },
  0xe00f: { key: "PageDown", code: "PageDown", keyCode: 34 },
  0xe010: { key: "End", code: "End", keyCode: 35 },
  0xe011: { key: "Home", code: "Home", keyCode: 36 },
  0xe012: { key: "ArrowLeft", code: "ArrowLeft", keyCode: 37 },
  0xe013: { key: "ArrowUp", code: "ArrowUp", keyCode: 38 },
  0xe014: { key: "ArrowRight", code: "ArrowRight", keyCode: 39 },
  0xe015: { key: "ArrowDown", code: "ArrowDown", keyCode: 40 },
  0xe016: { key: "Insert", code: "Insert", keyCode: 45 },
  0xe017: { key: "Delete", code: "Delete", keyCode: 46 },
  0xe018: { key: ";", code: "Semicolon", keyCode: 186, text: ";" },
  0xe019: { key: "=", code: "Equal", keyCode: 187, text: "=" },
  0xe024: { key: "*", code: "NumpadMultiply", keyCode: 106, text: "*" },
  0xe025: { key: "+", code: "NumpadAdd", keyCode: 107, text: "+" },
  0xe026: { key: ",", code: "NumpadComma", keyCode: 108, text: "," },
  0xe027: { key: "-", code: "NumpadSubtract", keyCode: 109, text: "-" },
  0xe028: { key: ".", code: "NumpadDecimal", keyCode: 110, text: "." },
  0xe029: { key: "/", code: "NumpadDivide", keyCode: 111, text: "/" },
  0xe03d: { key: "Meta", code: "MetaLeft", keyCode: 91, modifier: "metaKey" },
  0xe040: { key: "ZenkakuHankaku", code: "Lang5", keyCode: 244 },
};
for (let n = 0; n <= 9; n++) NAMED[0xe01a + n] = { key: String(n), code: `Numpad${n}`, keyCode: 96 + n, text: String(n) };
for (let n = 1; n <= 12; n++) NAMED[0xe030 + n] = { key: `F${n}`, code: `F${n}`, keyCode: 111 + n };

// The US layout's legacy key codes of the punctuation keys.
const PUNCTUATION: Record<string, [code: string, keyCode: number]> = {
  ";": ["Semicolon", 186], ":": ["Semicolon", 186], "=": ["Equal", 187], "+": ["Equal", 187],
  ",": ["Comma", 188], "<": ["Comma", 188], "-": ["Minus", 189], _: ["Minus", 189],
  ".": ["Period", 190], ">": ["Period", 190], "/": ["Slash", 191], "?": ["Slash", 191],
  "`": ["Backquote", 192], "~": ["Backquote", 192], "[": ["BracketLeft", 219], "{": ["BracketLeft", 219],
  "\\": ["Backslash", 220], "|": ["Backslash", 220], "]": ["BracketRight", 221], "}": ["BracketRight", 221],
  "'": ["Quote", 222], '"': ["Quote", 222], " ": ["Space", 32],
};

/** One step of a typed value: a key (a character or a named key), or NULL, which lets go of the modifiers. */
export type Keystroke = { kind: "key"; spec: KeySpec } | { kind: "releaseModifiers" };

/** The first code point of WebDriver's key block; U+E000..U+E05F are keys, not text. */
const KEY_BLOCK_START = 0xe000;
const KEY_BLOCK_END = 0xe05f;

/** The keystrokes of `value`, or the first code point that is in WebDriver's key block but is no key this page knows. */
export function keystrokes(value: string): { ok: true; strokes: Keystroke[] } | { ok: false; unknown: string } {
  const strokes: Keystroke[] = [];
  for (const ch of value) {
    const point = ch.codePointAt(0)!;
    if (point === KEY_BLOCK_START) {
      strokes.push({ kind: "releaseModifiers" });
    } else if (point > KEY_BLOCK_START && point <= KEY_BLOCK_END) {
      const spec = NAMED[point];
      if (!spec) return { ok: false, unknown: `U+${point.toString(16).toUpperCase()}` };
      strokes.push({ kind: "key", spec });
    } else {
      strokes.push({ kind: "key", spec: characterKey(ch) });
    }
  }
  return { ok: true, strokes };
}

/** The key that types `ch` (a character, or \n as Enter). */
export function characterKey(ch: string): KeySpec {
  if (ch === "\n" || ch === "\r") return { key: "Enter", code: "Enter", keyCode: 13 };
  if (ch === "\t") return NAMED[0xe004];
  if (/^[a-z]$/i.test(ch)) return { key: ch, code: `Key${ch.toUpperCase()}`, keyCode: ch.toUpperCase().charCodeAt(0), text: ch };
  if (/^[0-9]$/.test(ch)) return { key: ch, code: `Digit${ch}`, keyCode: ch.charCodeAt(0), text: ch };
  const known = PUNCTUATION[ch];
  return { key: ch, code: known?.[0] ?? "", keyCode: known?.[1] ?? 0, text: ch };
}
