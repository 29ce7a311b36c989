// The commands that act on the page as a user would: mouse (click, doubleClick, the *At forms,
// mouseDown/Up/Over/Out/MoveAt), keyboard (type, sendKeys, editContent), forms (check, uncheck,
// select, addSelection, removeSelection, submit). Names, targets and values are Selenium IDE's
// (side-runtime's WebDriverExecutor); like side-runtime, the acting commands keep trying until the
// implicit wait is over while their element is missing or cannot take the action yet. Where the
// caller gives trusted input (the host over DevTools, the extension through chrome.debugger), the
// mouse and keys are trusted DevTools events (trusted.ts); else they are DOM events (mouse.ts,
// keyboard.ts). Clearing a field and clicking an option follow chromedriver's events.
import { activeElementOf, describe, isContentEditable, isFocusable, isDisplayed, isEditable, isPickedField, isSelected, isTextField, setNativeValue, windowOf } from "./dom.ts";
import { caretToEnd, clearField } from "./editing.ts";
import { CommandFailure, NotPlayableHere } from "./errors.ts";
import { clampWait, waitForElement } from "./find.ts";
import { notVisible, POINTER, waitForActionable } from "./actionable.ts";
import { guardHits } from "./hitGuard.ts";
import type { ElementCondition } from "./find.ts";
import { commitChange, fireChange, focusElement, leaveFocus, markCommitted } from "./focus.ts";
import { sendKeys, submitForm } from "./keyboard.ts";
import { keystrokes } from "./keys.ts";
import type { Keystroke } from "./keys.ts";
import { click, doubleClick, dragAndDrop, hover, moveOut, pointOn, press, release } from "./mouse.ts";
import type { Offset, Point } from "./mouse.ts";
import { clickEvents, dragEvents, keyEvents, mouseMoved, mousePressed, mouseReleased, trustedFor } from "./trusted.ts";
import { chooseOption, findOption, optionDisabled, optionTyped, parseOptionLocator, whyNotTyped } from "./options.ts";
import type { CommandContext, CommandHandler } from "./types.ts";
import { messageOf } from "../../services/errors.ts";

const typable: ElementCondition = {
  holds: (el) => !canType(el) || isEditable(el),
  why: (_el, target) => `Element ${target} is not editable (it is disabled or read-only), so it cannot be typed into`,
};

const isFileInput = (el: Element) => el.localName === "input" && (el as HTMLInputElement).type === "file";

/** What typing needs to see: a shown field; a hidden file input is the rule (a styled button opens it), so it is typed into as it is. */
const typedInto = (el: Element) => isFileInput(el) || isDisplayed(el);

/** Visible (typedInto) and editable. */
const fieldReady: ElementCondition = {
  holds: (el) => typedInto(el) && typable.holds(el),
  why: (el, target) => (typedInto(el) ? typable.why(el, target) : notVisible(target)),
};

/** fieldReady, and in a select an enabled option whose value or label is the text typed. */
function typeReady(text: string): ElementCondition {
  return {
    holds: (el) => fieldReady.holds(el) && (el.localName !== "select" || whyNotTyped(el, "", text) === ""),
    why: (el, target) => (fieldReady.holds(el) ? whyNotTyped(el, target, text) : fieldReady.why(el, target)),
  };
}

const canType = (el: Element) => isTextField(el) || isPickedField(el) || isContentEditable(el);

/** "x,y": offsets in pixels from the element's centre (WebDriver moves to an element's centre); "" is the centre. */
export function parseOffset(command: string, value: string): Offset {
  if (value.trim() === "") return { x: 0, y: 0 };
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(value);
  if (!match) throw new CommandFailure(`${command} needs coordinates "x,y" as its value (pixels from the element's centre); got "${value}"`);
  return { x: Number(match[1]), y: Number(match[2]) };
}

function strokesOf(value: string): Keystroke[] {
  const parsed = keystrokes(value);
  if (!parsed.ok) throw new CommandFailure(`Unrecognised key ${parsed.unknown} in the value`);
  return parsed.strokes;
}

/**
 * A click (or a double click) at `point` on `el`: trusted where the page has trusted input,
 * else DOM events. An option of a select is never clicked at its box (a closed select's options
 * have none): it gets the DOM events and is chosen, as WebDriver's element click does. A trusted
 * click is guarded (hitGuard.ts): the element its press landed on instead of `el`, if the page
 * moved under it (the click was stopped before the page saw it), else null.
 */
async function userClick(context: CommandContext, el: Element, point: Point, clicks: 1 | 2 = 1): Promise<Element | null> {
  const trusted = el.localName === "option" ? null : trustedFor(context);
  if (!trusted) {
    if (clicks === 2) doubleClick(el, point);
    else click(el, point);
    return null;
  }
  const guard = guardHits(el);
  try {
    await trusted.input.send(clickEvents(trusted.at(point), clicks));
  } finally {
    guard.release();
  }
  return guard.missedOn();
}

/**
 * The command's element, waited for until it can be clicked, then clicked (when `wanted` says
 * so) at its centre or `offset`; a click the page moved out from under is tried again within
 * the command's wait, then fails naming where it would have landed.
 */
async function clickActionable(context: CommandContext, options: { offset?: Offset; clicks?: 1 | 2; wanted?: (el: Element) => boolean } = {}): Promise<Element> {
  const deadline = Date.now() + clampWait(context.request.implicitWaitMs);
  for (;;) {
    const el = await waitForActionable(context, { ...POINTER, offset: options.offset }, { timeoutMs: Math.max(0, deadline - Date.now()) });
    if (options.wanted && !options.wanted(el)) return el;
    const point = pointOn(el, options.offset);
    const missed = await userClick(context, el, point, options.clicks);
    if (!missed) return el;
    if (Date.now() >= deadline) {
      throw new CommandFailure(`Element ${context.request.target} is not clickable at point (${Math.floor(point.x)}, ${Math.floor(point.y)}). Other element would receive the click: ${describe(missed)}`);
    }
  }
}

async function clickCommand(context: CommandContext) {
  const el = await clickActionable(context);
  // A click on an option chooses it, as WebDriver's element click does (Selenium IDE records
  // such clicks after a select); the browser does not do that for a dispatched click.
  if (el.localName === "option" && !optionDisabled(el as HTMLOptionElement)) chooseOption(el as HTMLOptionElement, "click");
}

async function clickAtCommand(context: CommandContext) {
  await clickActionable(context, { offset: parseOffset(context.request.command, context.request.value) });
}

async function doubleClickCommand(context: CommandContext) {
  const offset = context.request.command === "doubleClickAt" ? parseOffset("doubleClickAt", context.request.value) : undefined;
  await clickActionable(context, { offset, clicks: 2 });
}

async function mouseCommand(context: CommandContext) {
  const { command, value } = context.request;
  const offset = command.endsWith("At") ? parseOffset(command, value) : undefined;
  // A disabled element still gets the mouse over it, down and up (its click is what is lost).
  const el = await waitForActionable(context, { visible: true, uncovered: true, stable: true, offset });
  const point = pointOn(el, offset);
  const trusted = trustedFor(context);
  if (trusted) {
    const at = trusted.at(point);
    const events = [mouseMoved(at)];
    if (command.startsWith("mouseDown")) events.push(mousePressed(at));
    if (command.startsWith("mouseUp")) events.push(mouseReleased(at));
    return trusted.input.send(events);
  }
  hover(el, point);
  if (command.startsWith("mouseDown")) press(el, point);
  if (command.startsWith("mouseUp")) release(el, point);
}

/** dragAndDropToObject: the target is dragged onto the element the value locates. */
async function dragAndDropCommand(context: CommandContext) {
  const source = await waitForActionable(context, { visible: true, uncovered: true, stable: true });
  // An empty drop zone (a list with nothing in it yet) may have no box: it need not be visible.
  const target = await waitForActionable(context, { stable: true }, { target: context.request.value });
  // HTML's drag and drop (a draggable source) gets its drag events from the page: a browser
  // driven over DevTools runs no drag of its own. A drag that follows the mouse is trusted.
  const trusted = (source as HTMLElement).draggable === true ? null : trustedFor(context);
  if (trusted) return trusted.input.send(dragEvents(trusted.at(pointOn(source)), trusted.at(pointOn(target))));
  dragAndDrop(source, target);
}

async function mouseOutCommand(context: CommandContext) {
  const el = await waitForElement(context);
  const rect = el.getBoundingClientRect();
  const outside = { x: rect.left + rect.width / 2, y: rect.top >= 1 ? rect.top - 1 : rect.bottom + 1 };
  const trusted = trustedFor(context);
  if (trusted) return trusted.input.send([mouseMoved(trusted.at(outside))]);
  moveOut(el, outside);
}

/** check / uncheck: a click when the element is not already as asked. */
function checkCommand(checked: boolean): CommandHandler {
  return async (context) => {
    await clickActionable(context, { wanted: (el) => isSelected(el) !== checked });
  };
}

async function typeCommand(context: CommandContext) {
  const { request } = context;
  const strokes = strokesOf(request.value);
  const el = await waitForActionable(context, { stable: true }, { condition: typeReady(request.value), usable: typedInto });
  if (el.localName === "select") return typeInSelect(context, el as HTMLSelectElement);
  if (isFileInput(el)) return chooseFiles(context, el as HTMLInputElement);
  if (!canType(el)) throw new CommandFailure(`Element ${request.target} is not a text field or an editable element, so it cannot be typed into`);
  if (!trustedFor(context)) focusElement(el);
  else if (isPickedField(el)) focusForKeys(el);
  if (isPickedField(el)) {
    // A date, colour or range is picked whole, not typed: the value is set, as a picker sets it.
    setNativeValue(el, request.value);
    const win = windowOf(el);
    el.dispatchEvent(new win.Event("input", { bubbles: true, composed: true }));
    fireChange(el);
    markCommitted(el);
    return;
  }
  const trusted = trustedFor(context);
  if (trusted) {
    clearAsWebDriver(el);
    if (strokes.length === 0) return;
    focusForKeys(el);
    return trusted.input.send(keyEvents(strokes));
  }
  clearField(el);
  sendKeys(el, strokes);
  commitChange(el.ownerDocument);
}

/**
 * `type` on a select chooses the option whose value (else label) is the text, with the events a
 * user's choice fires (focus, input, change), whichever input the player has: a Chrome Recorder
 * `change`, imported as `type`, names no element kind, and @puppeteer/replay sets a select's value.
 * A multiple select gets the option added to its selection.
 */
function typeInSelect(context: CommandContext, select: HTMLSelectElement): void {
  const { target, value } = context.request;
  const why = whyNotTyped(select, target, value);
  if (why !== "") throw new CommandFailure(why);
  chooseOption(optionTyped(select, value)!, select.multiple ? "add" : "click");
}

/**
 * `type` on a file input (CONTRACT sections 19, 21): the value names the files, one path a line,
 * as the host reads it. They are chosen in the chooser the input opens, by whoever holds the
 * browser's DevTools and can answer it (the extension); a player that cannot (the host's
 * in-page player) leaves the command to the host's WebDriver, which sets the files itself.
 */
async function chooseFiles(context: CommandContext, el: HTMLInputElement): Promise<void> {
  const { request } = context;
  const choose = context.input?.chooseFiles;
  if (!choose) throw new NotPlayableHere(`Element ${request.target} is a file input, whose file is chosen through the browser's DevTools, and this page is not held through them`);
  const paths = request.value.split("\n").map((line) => line.trim()).filter((line) => line !== "");
  if (paths.length === 0) throw new CommandFailure(`type on the file input ${request.target} needs the path of the file to upload as its value`);
  if (paths.length > 1 && !el.multiple) {
    throw new CommandFailure(`Element ${request.target} takes one file (it has no multiple attribute), and ${paths.length} were named: ${paths.join(", ")}`);
  }
  try {
    await choose.call(context.input, el, paths);
  } catch (error) {
    throw new CommandFailure(`Element ${request.target}: ${messageOf(error)}`);
  }
}

/** WebDriver's element clear: a field with text is focused, emptied (input), left (change, blur). */
function clearAsWebDriver(el: Element): void {
  const filled = isTextField(el) ? el.value !== "" : isContentEditable(el) && el.textContent !== "";
  if (!filled) return;
  (el as HTMLElement).focus({ preventScroll: true });
  clearField(el);
  fireChange(el);
  (el as HTMLElement).blur();
}

/** Focus for trusted keys, as WebDriver's sendKeys gives it: the caret at the end of a field not focused before. */
function focusForKeys(el: Element): void {
  const doc = el.ownerDocument;
  if (!isFocusable(el)) return leaveFocus(doc);
  if (activeElementOf(doc) === el) return;
  (el as HTMLElement).focus({ preventScroll: true });
  caretToEnd(el);
}

async function sendKeysCommand(context: CommandContext) {
  const strokes = strokesOf(context.request.value);
  const el = await waitForActionable(context, { enabled: true, stable: true });
  const trusted = trustedFor(context);
  if (trusted) {
    focusForKeys(el);
    return trusted.input.send(keyEvents(strokes));
  }
  sendKeys(el, strokes);
}

async function editContentCommand(context: CommandContext) {
  const el = await waitForElement(context);
  if (!isContentEditable(el)) throw new CommandFailure("Element is not content editable");
  if (typeof el.innerText === "string") el.innerText = context.request.value;
  else el.textContent = context.request.value;
  const win = windowOf(el);
  el.dispatchEvent(new win.Event("input", { bubbles: true, composed: true }));
}

function selectCommand(how: "click" | "add" | "remove"): CommandHandler {
  return async (context) => {
    const { target, value } = context.request;
    const locator = parseOptionLocator(value);
    let option: HTMLOptionElement | undefined;
    const el = await waitForActionable(context, { enabled: true }, {
      condition: {
        holds: (el) => {
          option = findOption(el, locator);
          return option !== undefined && !optionDisabled(option);
        },
        why: () => (option ? `Option ${locator.text} of ${target} is disabled` : `Element ${target} has no option ${locator.text}`),
      },
    });
    if (how === "remove" && !(el as HTMLSelectElement).multiple) {
      throw new CommandFailure("Given element is not a multiple select type element");
    }
    // side-runtime clicks the option: always for select, only when that changes it for add and remove.
    if ((how === "add" && option!.selected) || (how === "remove" && !option!.selected)) return;
    clickOption(option!);
  };
}

/**
 * An option clicked as chromedriver clicks one: its select takes the focus, the option is
 * chosen (toggled in a multiple select) with input and change, then mouseup and click follow,
 * on the select for a single one and on the option for a multiple one.
 */
function clickOption(option: HTMLOptionElement): void {
  chooseOption(option, "click");
  const select = option.closest("select")!;
  const on = select.multiple ? option : select;
  const win = windowOf(on);
  for (const type of ["mouseup", "click"]) on.dispatchEvent(new win.MouseEvent(type, { bubbles: true, cancelable: true, composed: true, view: win, detail: 1 }));
}

async function submitCommand(context: CommandContext) {
  const el = await waitForElement(context);
  const form = el.localName === "form" ? (el as HTMLFormElement) : ((el as HTMLInputElement).form ?? el.closest("form"));
  if (!form) throw new CommandFailure(`Element ${context.request.target} is not a form nor in one, so there is nothing to submit`);
  submitForm(form);
}

export const ACTIONS: Record<string, CommandHandler> = {
  click: clickCommand,
  clickAt: clickAtCommand,
  doubleClick: doubleClickCommand,
  doubleClickAt: doubleClickCommand,
  mouseDown: mouseCommand,
  mouseDownAt: mouseCommand,
  mouseUp: mouseCommand,
  mouseUpAt: mouseCommand,
  mouseMoveAt: mouseCommand,
  mouseOver: mouseCommand,
  mouseOut: mouseOutCommand,
  dragAndDropToObject: dragAndDropCommand,
  check: checkCommand(true),
  uncheck: checkCommand(false),
  type: typeCommand,
  sendKeys: sendKeysCommand,
  editContent: editContentCommand,
  select: selectCommand("click"),
  addSelection: selectCommand("add"),
  removeSelection: selectCommand("remove"),
  submit: submitCommand,
};

