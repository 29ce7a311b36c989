// The user's input as trusted DevTools input events (CONTRACT section 19): what the page's
// commands send through TrustedInput (types.ts) where the page has it, in place of the DOM
// events of mouse.ts and keyboard.ts. The browser then does what it does for a person: `:hover`
// applies, focus moves, keys type and their defaults run (Tab, Enter submitting, Backspace), and
// the page's handlers see `isTrusted` events. Only the events are built here; the host (over its
// DevTools connection) and the extension (chrome.debugger) send them.
import type { KeySpec, Keystroke, Modifier } from "./keys.ts";
import type { Point } from "./mouse.ts";
import type { CommandContext, InputEvent, TrustedInput } from "./types.ts";

export type Button = "left" | "middle" | "right";

/** DevTools' modifier bits. */
const MODIFIER_BITS: Readonly<Record<Modifier, number>> = { altKey: 1, ctrlKey: 2, metaKey: 4, shiftKey: 8 };
const BUTTON_BITS: Readonly<Record<Button, number>> = { left: 1, right: 2, middle: 4 };
/** The moves between a drag's press and its release, so libraries that follow mousemove see it travel. */
const DRAG_STEPS = 5;

/** The command's trusted input for its window, with the point moved into the top window's viewport; null: DOM events instead. */
export function trustedFor(context: CommandContext): { input: TrustedInput; at(point: Point): Point } | null {
  const { input, win } = context;
  if (!input) return null;
  const offset = input.offset(win);
  if (!offset) return null;
  return { input, at: (point) => ({ x: point.x + offset.x, y: point.y + offset.y }) };
}

const mouse = (params: Record<string, unknown>): InputEvent => ({ method: "Input.dispatchMouseEvent", params });

export const mouseMoved = (at: Point, held: Button | null = null): InputEvent =>
  mouse({ type: "mouseMoved", x: at.x, y: at.y, button: held ?? "none", buttons: held ? BUTTON_BITS[held] : 0 });

export const mousePressed = (at: Point, button: Button = "left", clickCount = 1): InputEvent =>
  mouse({ type: "mousePressed", x: at.x, y: at.y, button, buttons: BUTTON_BITS[button], clickCount });

export const mouseReleased = (at: Point, button: Button = "left", clickCount = 1): InputEvent =>
  mouse({ type: "mouseReleased", x: at.x, y: at.y, button, buttons: 0, clickCount });

/** Move, press, release (twice for a double click, the second with clickCount 2, so the browser fires dblclick). */
export function clickEvents(at: Point, clicks: 1 | 2 = 1, button: Button = "left"): InputEvent[] {
  const events = [mouseMoved(at), mousePressed(at, button, 1), mouseReleased(at, button, 1)];
  if (clicks === 2) events.push(mousePressed(at, button, 2), mouseReleased(at, button, 2));
  return events;
}

/** Press at `from`, travel to `to` in steps with the button held, release there: a drag as mouse-move libraries (sortable lists) see it. */
export function dragEvents(from: Point, to: Point): InputEvent[] {
  const events = [mouseMoved(from), mousePressed(from)];
  for (let step = 1; step <= DRAG_STEPS; step++) {
    const part = step / DRAG_STEPS;
    events.push(mouseMoved({ x: from.x + (to.x - from.x) * part, y: from.y + (to.y - from.y) * part }, "left"));
  }
  events.push(mouseReleased(to));
  return events;
}

/**
 * The key events of `strokes`, as WebDriver's sendKeys presses them: a modifier key toggles
 * (held until pressed again, NULL, or the end); a key that types sends its text (upper case
 * under Shift) unless Control, Alt or Meta is held; Enter types "\r" so the browser's own
 * Enter runs.
 */
export function keyEvents(strokes: Keystroke[]): InputEvent[] {
  const events: InputEvent[] = [];
  let modifiers = 0;
  const held: KeySpec[] = [];
  const key = (type: string, spec: KeySpec, text?: string): InputEvent => ({
    method: "Input.dispatchKeyEvent",
    params: {
      type,
      key: spec.key,
      code: spec.code,
      windowsVirtualKeyCode: spec.keyCode,
      nativeVirtualKeyCode: spec.keyCode,
      modifiers,
      location: spec.code.startsWith("Numpad") ? 3 : 0,
      ...(text === undefined ? {} : { text, unmodifiedText: text }),
    },
  });
  const letGo = (spec: KeySpec) => {
    modifiers &= ~MODIFIER_BITS[spec.modifier!];
    held.splice(held.indexOf(spec), 1);
    events.push(key("keyUp", spec));
  };
  for (const stroke of strokes) {
    if (stroke.kind === "releaseModifiers") {
      for (const spec of [...held].reverse()) letGo(spec);
      continue;
    }
    const { spec } = stroke;
    if (spec.modifier) {
      const holding = held.find((h) => h.modifier === spec.modifier);
      if (holding) letGo(holding);
      else {
        modifiers |= MODIFIER_BITS[spec.modifier];
        held.push(spec);
        events.push(key("rawKeyDown", spec));
      }
      continue;
    }
    const chord = (modifiers & (MODIFIER_BITS.altKey | MODIFIER_BITS.ctrlKey | MODIFIER_BITS.metaKey)) !== 0;
    let text = spec.key === "Enter" ? "\r" : spec.text;
    if (text !== undefined && text.length === 1 && modifiers & MODIFIER_BITS.shiftKey) text = text.toUpperCase();
    const shown = text !== undefined && text !== "\r" ? { ...spec, key: text } : spec;
    events.push(text !== undefined && !chord ? key("keyDown", shown, text) : key("rawKeyDown", shown));
    events.push(key("keyUp", shown));
  }
  for (const spec of [...held].reverse()) letGo(spec);
  return events;
}
