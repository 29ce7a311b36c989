// The in-page commands of a run in the extension's tab under test (drivers/player/),
// against jsdom: each command passes where Selenium IDE's passes and fails where it fails, with
// side-runtime's message; the implicit wait, the alternative targets and the abort signal; the
// events a user's click and typing make. jsdom has no layout, so visibility here comes from
// styles alone; the same module runs in real Chromium in tests/browser/page-commands.browser.test.ts.
import { JSDOM } from "jsdom";
import webdriver from "selenium-webdriver";
import { describe, expect, it } from "vitest";
import { IN_PAGE_COMMANDS, KEY_VARIABLES, locateInPage, MAX_WAIT_MS, runInPage } from "../../drivers/player/index.ts";
import { clampWait } from "../../drivers/player/find.ts";
import type { InPageAnswer, InPageRequest } from "../../drivers/player/index.ts";
import { fingerprintOf } from "../../services/healing/index.ts";

const KEY = (name: string) => KEY_VARIABLES[`KEY_${name}`];

function page(body: string, title = "Shop"): Window {
  const dom = new JSDOM(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`, {
    url: "http://shop.test/catalogue/",
  });
  return dom.window as unknown as Window;
}

function run(win: Window, command: string, target = "", value = "", more: Partial<InPageRequest> = {}, signal?: AbortSignal): Promise<InPageAnswer> {
  return runInPage(win, { command, target, value, targets: [], implicitWaitMs: 150, ...more }, signal);
}

const $ = <T extends Element = HTMLElement>(win: Window, css: string) => win.document.querySelector(css) as unknown as T;

/** Every event of `types` that reaches `root` (captured), as "type@id" or "type@tag". */
function record(root: EventTarget & { ownerDocument?: Document | null }, types: string[]): string[] {
  const seen: string[] = [];
  for (const type of types) {
    root.addEventListener(
      type,
      (event) => {
        const el = event.target as Element;
        seen.push(`${type}@${el.id || el.localName}`);
      },
      true,
    );
  }
  return seen;
}

const passed = { state: "passed" };
const failed = (message: string) => ({ state: "failed", message });
const unsupported = (message: string) => ({ state: "unsupported", message });

// Submitting in jsdom would log "not implemented" navigation; the tests watch the event instead.
function submissions(win: Window): Array<string | null> {
  const seen: Array<string | null> = [];
  win.document.addEventListener("submit", (event) => {
    event.preventDefault();
    const submitter = (event as SubmitEvent).submitter;
    seen.push(submitter ? submitter.id || submitter.localName : null);
  });
  return seen;
}

describe("the interface", () => {
  it("does every command the issue names in the page", () => {
    const named = [
      "click", "doubleClick", "type", "sendKeys", "select", "addSelection", "removeSelection", "check", "uncheck", "submit",
      "mouseOver", "mouseDown", "mouseUp", "clickAt", "assertText", "verifyText", "assertNotText", "assertValue",
      "verifyValue", "assertTitle", "verifyTitle", "assertElementPresent", "assertElementNotPresent", "verifyElementPresent",
      "assertChecked", "assertNotChecked", "assertSelectedValue", "assertSelectedLabel", "assertEditable",
      "waitForElementPresent", "waitForElementNotPresent", "waitForElementVisible", "waitForElementNotVisible",
      "waitForElementEditable", "storeText", "storeValue", "storeTitle", "storeAttribute", "storeXpathCount", "storeElementCount",
    ];
    expect(named.filter((name) => !IN_PAGE_COMMANDS.has(name))).toEqual([]);
  });

  it("has a verify twin for every assert it does", () => {
    const asserts = [...IN_PAGE_COMMANDS].filter((name) => name.startsWith("assert"));
    expect(asserts.length).toBeGreaterThan(10);
    expect(asserts.filter((name) => !IN_PAGE_COMMANDS.has(name.replace(/^assert/, "verify")))).toEqual([]);
  });

  it("caps every wait at MAX_WAIT_MS and reads a negative or unknown one as no wait", () => {
    expect(clampWait(MAX_WAIT_MS * 1000)).toBe(MAX_WAIT_MS);
    expect(clampWait(Number.POSITIVE_INFINITY)).toBe(MAX_WAIT_MS);
    expect(clampWait(-5)).toBe(0);
    expect(clampWait(Number.NaN)).toBe(0);
    expect(clampWait(1500)).toBe(1500);
  });

  it("leaves the window's commands and alerts to others, answering unsupported with the command's name", async () => {
    const win = page("");
    for (const command of ["open", "executeScript", "selectFrame", "setWindowSize", "assertAlert", "echo", "pause", "store", "assert"]) {
      expect(IN_PAGE_COMMANDS.has(command)).toBe(false);
      const answer = await run(win, command, "x", "y");
      expect(answer.state).toBe("unsupported");
      expect(answer).toHaveProperty("message", expect.stringContaining(command));
    }
  });

  it("answers a command it lists as something other than unsupported", async () => {
    const win = page(`<input id="a" value="1"><select id="s"><option>x</option></select>`);
    for (const command of IN_PAGE_COMMANDS) {
      const answer = await run(win, command, "id=nothing", "v", { implicitWaitMs: 0 });
      expect(answer.state, command).not.toBe("unsupported");
    }
  });

  it("answers failed, not a throw, for a request that is not one", async () => {
    const win = page("");
    const answer = await runInPage(win, { command: "click", target: 3, value: "", targets: [], implicitWaitMs: 0 } as unknown as InPageRequest);
    expect(answer).toEqual(failed("The page command request's target is not a string."));
  });

  it("names every key of selenium-webdriver with its code point, prefixed KEY_ as Selenium IDE writes them", () => {
    const keys = Object.entries(webdriver.Key).filter(([, point]) => typeof point === "string");
    expect(keys.length).toBeGreaterThan(50);
    for (const [name, point] of keys) expect(KEY_VARIABLES[`KEY_${name}`], name).toBe(point);
    expect(Object.keys(KEY_VARIABLES)).toHaveLength(keys.length);
    expect(KEY("ENTER")).toBe("\uE007");
  });
});

describe("finding the element", () => {
  it("finds the element by an alternative target when the target matches nothing, and says the command healed by it", async () => {
    const win = page(`<button id="go">Go</button>`);
    const clicks = record(win.document, ["click"]);
    const answer = await run(win, "click", "id=gone", "", { targets: ["css=.missing", "xpath=//button[text()='Go']"] });
    expect(answer).toEqual({ state: "passed", healed: { locator: "xpath=//button[text()='Go']", score: 1 } });
    expect(clicks).toEqual(["click@go"]);
  });

  it("waits for an element that appears within the implicit wait", async () => {
    const win = page(`<main></main>`);
    setTimeout(() => ($(win, "main").innerHTML = `<b id="late">here</b>`), 40);
    expect(await run(win, "assertText", "id=late", "here", { implicitWaitMs: 2_000 })).toEqual(passed);
  });

  it("fails with Selenium's 'Element X not found' when nothing matches within the wait", async () => {
    const win = page(`<p>nothing</p>`);
    expect(await run(win, "click", "id=missing", "", { targets: ["name=missing"] })).toEqual(failed("Element id=missing not found"));
  });

  it("fails at once with the locator's own message when the target is not a locator", async () => {
    const win = page(`<p>x</p>`);
    const answer = await run(win, "click", "bogus=1", "", { implicitWaitMs: 60_000 });
    expect(answer.state).toBe("failed");
    expect(answer).toHaveProperty("message", expect.stringContaining('unknown strategy "bogus"'));
    expect(await run(win, "click", "", "")).toEqual(failed("The locator is empty; give a locator such as id=name, css=... or //xpath."));
  });

  it("skips an alternative target that is not a locator and tries the next", async () => {
    const win = page(`<a id="home" href="#">Home</a>`);
    expect(await run(win, "assertElementPresent", "id=nope", "", { targets: ["not a locator", "linkText=Home"] })).toEqual({ state: "passed", healed: { locator: "linkText=Home", score: 1 } });
    // Found by its own target, a command is not healed.
    expect(await run(win, "assertElementPresent", "id=home", "", { targets: ["linkText=Home"] })).toEqual(passed);
  });

  it("lets go of a wait when the signal aborts", async () => {
    const win = page("");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const answer = await run(win, "click", "id=never", "", { implicitWaitMs: 60_000 }, controller.signal);
    expect(answer).toEqual(failed("The command was stopped while it waited."));
  });

  it("locates an element for the window's own uses with the same wait and message", async () => {
    const win = page(`<iframe id="f"></iframe>`);
    const found = await locateInPage(win, { target: "id=f", implicitWaitMs: 0 });
    expect(found.ok && found.element.id).toBe("f");
    expect(await locateInPage(win, { target: "id=g", implicitWaitMs: 0 })).toEqual({ ok: false, message: "Element id=g not found" });
  });
});

describe("click and the mouse", () => {
  it("clicks with the events of a user's click, in order, focusing what it presses", async () => {
    const win = page(`<input id="name"><button id="go">Go</button>`);
    const seen = record(win.document, ["mouseover", "mousemove", "mousedown", "focus", "mouseup", "click"]);
    expect(await run(win, "click", "id=go")).toEqual(passed);
    expect(seen).toEqual(["mouseover@go", "mousemove@go", "mousedown@go", "focus@go", "mouseup@go", "click@go"]);
    expect(win.document.activeElement?.id).toBe("go");
  });

  it("lets the browser do what the click means: a submit button submits its form", async () => {
    const win = page(`<form><input name="q"><button id="search">Search</button></form>`);
    const submitted = submissions(win);
    expect(await run(win, "click", "css=form button")).toEqual(passed);
    expect(submitted).toEqual(["search"]);
  });

  it("does not click a hidden element, and says it is not visible", async () => {
    const win = page(`<button id="go" style="display:none">Go</button>`);
    const clicks = record(win.document, ["click"]);
    expect(await run(win, "click", "id=go")).toEqual(failed("Element id=go is not visible, so it cannot be interacted with"));
    expect(clicks).toEqual([]);
  });

  it("clicks an element revealed while it waits", async () => {
    const win = page(`<div id="box" hidden><button id="go">Go</button></div>`);
    const clicks = record(win.document, ["click"]);
    setTimeout(() => $(win, "#box").removeAttribute("hidden"), 40);
    expect(await run(win, "click", "id=go", "", { implicitWaitMs: 2_000 })).toEqual(passed);
    expect(clicks).toEqual(["click@go"]);
  });

  it("clicks at an offset from the element's centre with clickAt", async () => {
    const win = page(`<canvas id="map"></canvas>`);
    const points: Array<[number, number]> = [];
    $(win, "#map").addEventListener("click", (e) => points.push([(e as MouseEvent).clientX, (e as MouseEvent).clientY]));
    expect(await run(win, "clickAt", "id=map", "5,-7")).toEqual(passed);
    expect(points).toEqual([[5, -7]]);
  });

  it("rejects clickAt coordinates that are not x,y", async () => {
    const win = page(`<canvas id="map"></canvas>`);
    expect(await run(win, "clickAt", "id=map", "left")).toEqual(failed(`clickAt needs coordinates "x,y" as its value (pixels from the element's centre); got "left"`));
  });

  it("double-clicks with two clicks and a dblclick", async () => {
    const win = page(`<p id="word">word</p>`);
    const details: string[] = [];
    for (const type of ["click", "dblclick"]) {
      $(win, "#word").addEventListener(type, (e) => details.push(`${type}:${(e as MouseEvent).detail}`));
    }
    expect(await run(win, "doubleClick", "id=word")).toEqual(passed);
    expect(details).toEqual(["click:1", "click:2", "dblclick:2"]);
  });

  it("hovers with mouseOver and sends the element left its mouseout when the mouse moves on", async () => {
    const win = page(`<a id="menu" href="#">Menu</a><a id="help" href="#">Help</a>`);
    const seen = record(win.document, ["mouseover", "mouseenter", "mouseout", "mouseleave"]);
    await run(win, "mouseOver", "id=menu");
    await run(win, "mouseOver", "id=help");
    expect(seen).toEqual(["mouseover@menu", "mouseenter@menu", "mouseout@menu", "mouseleave@menu", "mouseover@help", "mouseenter@help"]);
  });

  it("presses without clicking on mouseDown, and lets go on mouseUp", async () => {
    const win = page(`<div id="handle">drag</div>`);
    const seen = record(win.document, ["mousedown", "mouseup", "click"]);
    await run(win, "mouseDown", "id=handle");
    expect(seen).toEqual(["mousedown@handle"]);
    await run(win, "mouseUpAt", "id=handle", "3,3");
    expect(seen).toEqual(["mousedown@handle", "mouseup@handle"]);
  });

  it("drags an element onto another with a press on it and a move and release on the other", async () => {
    const win = page(`<div id="card">card</div><div id="bin">bin</div>`);
    const seen = record(win.document, ["mousedown", "mousemove", "mouseup"]);
    const held: number[] = [];
    $(win, "#bin").addEventListener("mousemove", (e) => held.push((e as MouseEvent).buttons));
    expect(await run(win, "dragAndDropToObject", "id=card", "id=bin")).toEqual(passed);
    expect(seen).toEqual(["mousemove@card", "mousedown@card", "mousemove@bin", "mouseup@bin"]);
    expect(held).toEqual([1]);
    expect(await run(win, "dragAndDropToObject", "id=card", "id=nowhere")).toEqual(failed("Element id=nowhere not found"));
  });

  it("moves the mouse out of an element with mouseOut", async () => {
    const win = page(`<div id="tip">tip</div>`);
    const seen = record(win.document, ["mouseout", "mouseleave"]);
    expect(await run(win, "mouseOut", "id=tip")).toEqual(passed);
    expect(seen).toEqual(["mouseout@tip", "mouseleave@tip"]);
  });
});

describe("type", () => {
  it("replaces a field's value key by key with keydown, keypress, input and keyup, then one change", async () => {
    const win = page(`<input id="user" value="old">`);
    const seen = record(win.document, ["keydown", "keypress", "input", "keyup", "change"]);
    expect(await run(win, "type", "id=user", "ab")).toEqual(passed);
    expect($<HTMLInputElement>(win, "#user").value).toBe("ab");
    expect(seen).toEqual([
      "input@user", // the clearing
      "keydown@user", "keypress@user", "input@user", "keyup@user",
      "keydown@user", "keypress@user", "input@user", "keyup@user",
      "change@user",
    ]);
  });

  it("sets the value through the native setter, past a value property a framework put on the element", async () => {
    const win = page(`<input id="user">`);
    const input = $<HTMLInputElement>(win, "#user");
    const tracked: string[] = [];
    const native = Object.getOwnPropertyDescriptor((win as unknown as typeof globalThis).HTMLInputElement.prototype, "value")!;
    Object.defineProperty(input, "value", {
      configurable: true,
      get: () => native.get!.call(input),
      set: (v: string) => tracked.push(v), // a tracker that would hide the change from the framework
    });
    await run(win, "type", "id=user", "hi");
    expect(native.get!.call(input)).toBe("hi");
    expect(tracked).toEqual([]);
  });

  it("keeps line breaks in a textarea", async () => {
    const win = page(`<textarea id="note"></textarea>`);
    await run(win, "type", "id=note", "one\ntwo");
    expect($<HTMLTextAreaElement>(win, "#note").value).toBe("one\ntwo");
  });

  it("stops at a field's maxlength, as the browser stops a user", async () => {
    const win = page(`<input id="zip" maxlength="4">`);
    await run(win, "type", "id=zip", "123456");
    expect($<HTMLInputElement>(win, "#zip").value).toBe("1234");
  });

  it("types a number and an email as typed, though their values read empty or trimmed part way", async () => {
    const win = page(`<input id="price" type="number"><input id="mail" type="email">`);
    expect(await run(win, "type", "id=price", "-1.5")).toEqual(passed);
    expect(await run(win, "type", "id=mail", "ann lee@x.org")).toEqual(passed);
    expect($<HTMLInputElement>(win, "#price").value).toBe("-1.5");
    expect($<HTMLInputElement>(win, "#mail").value).toBe("ann lee@x.org");
  });

  it("keeps out a character whose keydown the page cancels", async () => {
    const win = page(`<input id="digits">`);
    $(win, "#digits").addEventListener("keydown", (e) => {
      if (!/^\d$/.test((e as KeyboardEvent).key)) e.preventDefault();
    });
    await run(win, "type", "id=digits", "1a2b");
    expect($<HTMLInputElement>(win, "#digits").value).toBe("12");
  });

  it("empties a field when the value is empty", async () => {
    const win = page(`<input id="q" value="shoes">`);
    expect(await run(win, "type", "id=q", "")).toEqual(passed);
    expect($<HTMLInputElement>(win, "#q").value).toBe("");
  });

  it("fails to type into a disabled or read-only field, saying it is not editable", async () => {
    const win = page(`<input id="off" disabled value="x"><input id="ro" readonly value="y">`);
    const message = (id: string) => `Element id=${id} is not editable (it is disabled or read-only), so it cannot be typed into`;
    expect(await run(win, "type", "id=off", "new")).toEqual(failed(message("off")));
    expect(await run(win, "type", "id=ro", "new")).toEqual(failed(message("ro")));
    expect($<HTMLInputElement>(win, "#off").value).toBe("x");
    expect($<HTMLInputElement>(win, "#ro").value).toBe("y");
  });

  it("refuses to type into elements that take no text, and a file input where no DevTools answer its chooser", async () => {
    const win = page(`<div id="box">x</div>`);
    expect(await run(page(`<input type="file" id="cv">`), "type", "id=cv", "cv.pdf")).toEqual(
      unsupported(
        "Element id=cv is a file input, whose file is chosen through the browser's DevTools, and this page is not held through them",
      ),
    );
    expect(await run(win, "type", "id=box", "S")).toEqual(
      failed("Element id=box is not a text field or an editable element, so it cannot be typed into"),
    );
  });

  it("types into an editable element", async () => {
    const win = page(`<div id="editor" contenteditable="true">draft</div>`);
    expect(await run(win, "type", "id=editor", "final")).toEqual(passed);
    expect($(win, "#editor").textContent).toBe("final");
  });

  it("sets a date field whole and fires its change", async () => {
    const win = page(`<input id="when" type="date">`);
    const seen = record(win.document, ["change"]);
    expect(await run(win, "type", "id=when", "2026-11-23")).toEqual(passed);
    expect($<HTMLInputElement>(win, "#when").value).toBe("2026-11-23");
    expect(seen).toEqual(["change@when"]);
  });
});

describe("sendKeys", () => {
  it("adds to the end of what a field holds, without clearing it", async () => {
    const win = page(`<input id="q" value="red">`);
    await run(win, "sendKeys", "id=q", " shoes");
    expect($<HTMLInputElement>(win, "#q").value).toBe("red shoes");
  });

  it("submits the form on ENTER like a browser: the field's change, then the default button's click and submit", async () => {
    const win = page(`<form><input id="q"><button id="search">Search</button><button id="other">Other</button></form>`);
    const seen = record(win.document, ["change", "click"]);
    const submitted = submissions(win);
    expect(await run(win, "sendKeys", "id=q", `shoes${KEY("ENTER")}`)).toEqual(passed);
    expect(seen).toEqual(["change@q", "click@search"]);
    expect(submitted).toEqual(["search"]);
  });

  it("gives ENTER the key, code and keyCode WebDriver's ENTER has", async () => {
    const win = page(`<input id="q">`);
    const keys: string[] = [];
    $(win, "#q").addEventListener("keydown", (e) => {
      const k = e as KeyboardEvent;
      keys.push(`${k.key}/${k.code}/${k.keyCode}`);
    });
    await run(win, "sendKeys", "id=q", `${KEY("ENTER")}${KEY("RETURN")}`);
    expect(keys).toEqual(["Enter/NumpadEnter/13", "Enter/Enter/13"]);
  });

  it("submits on ENTER a form with no submit button and one text field", async () => {
    const win = page(`<form><input id="q"><input type="checkbox" name="all"></form>`);
    const submitted = submissions(win);
    await run(win, "sendKeys", "id=q", KEY("ENTER"));
    expect(submitted).toEqual([null]);
  });

  it("does not submit on ENTER a form with two text fields and no button, nor one whose default button is disabled", async () => {
    const win = page(`<form><input id="a"><input id="b"></form><form><input id="c"><button disabled>Go</button></form>`);
    const submitted = submissions(win);
    await run(win, "sendKeys", "id=a", KEY("ENTER"));
    await run(win, "sendKeys", "id=c", KEY("ENTER"));
    expect(submitted).toEqual([]);
  });

  it("does not submit when the page cancels the ENTER keydown", async () => {
    const win = page(`<form><input id="q"><button>Go</button></form>`);
    $(win, "#q").addEventListener("keydown", (e) => e.preventDefault());
    const submitted = submissions(win);
    await run(win, "sendKeys", "id=q", KEY("ENTER"));
    expect(submitted).toEqual([]);
  });

  it("starts a new line on ENTER in a textarea", async () => {
    const win = page(`<form><textarea id="note">a</textarea><button>Go</button></form>`);
    const submitted = submissions(win);
    await run(win, "sendKeys", "id=note", `${KEY("ENTER")}b`);
    expect($<HTMLTextAreaElement>(win, "#note").value).toBe("a\nb");
    expect(submitted).toEqual([]);
  });

  it("deletes before the caret on BACK_SPACE and moves it with the arrows", async () => {
    const win = page(`<input id="q" value="shoes">`);
    await run(win, "sendKeys", "id=q", `${KEY("BACK_SPACE")}${KEY("ARROW_LEFT")}${KEY("ARROW_LEFT")}X`);
    expect($<HTMLInputElement>(win, "#q").value).toBe("shXoe");
  });

  it("types capitals while SHIFT is held, until NULL lets go", async () => {
    const win = page(`<input id="q">`);
    await run(win, "sendKeys", "id=q", `a${KEY("SHIFT")}bc${KEY("NULL")}d`);
    expect($<HTMLInputElement>(win, "#q").value).toBe("aBCd");
  });

  it("replaces the text after CONTROL+a, which selects it all", async () => {
    const win = page(`<input id="q" value="old text">`);
    await run(win, "sendKeys", "id=q", `${KEY("CONTROL")}a${KEY("NULL")}new`);
    expect($<HTMLInputElement>(win, "#q").value).toBe("new");
  });

  it("moves focus on TAB, and the field left gets its change", async () => {
    const win = page(`<input id="first"><a id="skip">no href</a><input id="second">`);
    const seen = record(win.document, ["change", "focus"]);
    await run(win, "sendKeys", "id=first", `x${KEY("TAB")}y`);
    expect(win.document.activeElement?.id).toBe("second");
    expect($<HTMLInputElement>(win, "#second").value).toBe("y");
    expect(seen).toEqual(["focus@first", "change@first", "focus@second"]);
  });

  it("lets focus leave the page on TAB from the last field", async () => {
    const win = page(`<input id="only">`);
    await run(win, "sendKeys", "id=only", KEY("TAB"));
    expect(win.document.activeElement).toBe(win.document.body);
  });

  it("chooses in a focused select with the arrow keys and by typing an option's first letters", async () => {
    const win = page(`<select id="size"><option>Small</option><option disabled>Medium</option><option>Large</option><option>Larger</option></select>`);
    const select = $<HTMLSelectElement>(win, "#size");
    const seen = record(win.document, ["change"]);
    await run(win, "sendKeys", "id=size", KEY("ARROW_DOWN"));
    expect(select.value).toBe("Large");
    await run(win, "sendKeys", "id=size", `${KEY("HOME")}`);
    expect(select.value).toBe("Small");
    await run(win, "sendKeys", "id=size", "Larger");
    expect(select.value).toBe("Larger");
    expect(seen).toEqual(["change@size", "change@size", "change@size", "change@size"]);
  });

  it("fires the change of a field it edited when a later click takes focus elsewhere", async () => {
    const win = page(`<input id="q"><button id="go">Go</button>`);
    const seen = record(win.document, ["change"]);
    await run(win, "sendKeys", "id=q", "abc");
    expect(seen).toEqual([]);
    await run(win, "click", "id=go");
    expect(seen).toEqual(["change@q"]);
  });

  it("sends keys for an element that takes no focus to that element, not to a field focused earlier", async () => {
    const win = page(`<input id="q"><main id="app">app</main>`);
    const seen = record(win.document, ["keydown", "change"]);
    await run(win, "sendKeys", "id=q", "a");
    await run(win, "sendKeys", "id=app", KEY("ESCAPE"));
    expect(seen).toEqual(["keydown@q", "change@q", "keydown@app"]);
    expect($<HTMLInputElement>(win, "#q").value).toBe("a");
  });

  it("toggles a focused checkbox with SPACE", async () => {
    const win = page(`<input id="agree" type="checkbox">`);
    await run(win, "sendKeys", "id=agree", KEY("SPACE"));
    expect($<HTMLInputElement>(win, "#agree").checked).toBe(true);
  });

  it("fails for a code point in WebDriver's key block that is no key", async () => {
    const win = page(`<input id="q">`);
    expect(await run(win, "sendKeys", "id=q", "a\uE05A")).toEqual(failed("Unrecognised key U+E05A in the value"));
    expect($<HTMLInputElement>(win, "#q").value).toBe("");
  });

  it("refuses a disabled field, saying it is not interactable", async () => {
    const win = page(`<input id="q" disabled>`);
    expect(await run(win, "sendKeys", "id=q", "a")).toEqual(failed("Element id=q is not interactable (it is disabled)"));
  });
});

describe("select and the options", () => {
  const sizes = `<select id="size"><option value="s">Small</option><option value="m" id="medium">Medium</option><option value="l">Large</option></select>`;

  it("chooses an option by label, value, index (from 1, as side-runtime counts) and id, firing input and change", async () => {
    const win = page(sizes);
    const select = $<HTMLSelectElement>(win, "#size");
    const seen = record(win.document, ["input", "change"]);
    for (const [locator, expected] of [["label=Large", "l"], ["value=s", "s"], ["index=2", "m"], ["id=medium", "m"], ["Large", "l"]]) {
      expect(await run(win, "select", "id=size", locator), locator).toEqual(passed);
      expect(select.value, locator).toBe(expected);
    }
    // "id=medium" chose what index=2 had chosen: no change for it.
    expect(seen).toEqual(["input@size", "change@size", "input@size", "change@size", "input@size", "change@size", "input@size", "change@size"]);
  });

  it("chooses an option that a click lands on, as WebDriver's click does", async () => {
    const win = page(sizes);
    const seen = record(win.document, ["change"]);
    expect(await run(win, "click", "css=#size option:nth-child(3)")).toEqual(passed);
    expect($<HTMLSelectElement>(win, "#size").value).toBe("l");
    expect(seen).toEqual(["change@size"]);
  });

  it("fails naming an option that is not there, and a locator kind Selenium does not know", async () => {
    const win = page(sizes);
    expect(await run(win, "select", "id=size", "label=Huge")).toEqual(failed("Element id=size has no option label=Huge"));
    expect(await run(win, "select", "id=size", "colour=red")).toEqual(failed("Unknown selection locator colour"));
    expect(await run(win, "select", "id=size", "index=0")).toEqual(
      failed("The option locator index=0 is not an index; index= counts options from 1 (index=1 is the first)."),
    );
    expect($<HTMLSelectElement>(win, "#size").value).toBe("s");
  });

  it("does not choose a disabled option", async () => {
    const win = page(`<select id="size"><option>Small</option><option disabled>Large</option></select>`);
    expect(await run(win, "select", "id=size", "label=Large")).toEqual(failed("Option label=Large of id=size is disabled"));
    expect($<HTMLSelectElement>(win, "#size").value).toBe("Small");
  });

  it("adds to and takes from a multiple select's selection", async () => {
    const win = page(`<select id="tags" multiple><option>red</option><option selected>blue</option><option>green</option></select>`);
    const chosen = () => Array.from($<HTMLSelectElement>(win, "#tags").selectedOptions, (o) => o.text);
    expect(await run(win, "addSelection", "id=tags", "label=green")).toEqual(passed);
    expect(chosen()).toEqual(["blue", "green"]);
    expect(await run(win, "addSelection", "id=tags", "label=green")).toEqual(passed);
    expect(chosen()).toEqual(["blue", "green"]);
    expect(await run(win, "removeSelection", "id=tags", "label=blue")).toEqual(passed);
    expect(chosen()).toEqual(["green"]);
  });

  it("types into a select by choosing the option whose value is the text, else whose label is, firing focus, input and change", async () => {
    const win = page(sizes);
    const select = $<HTMLSelectElement>(win, "#size");
    const seen = record(win.document, ["focus", "input", "change", "click"]);
    expect(await run(win, "type", "id=size", "m")).toEqual(passed);
    expect(select.value).toBe("m");
    expect(await run(win, "type", "id=size", "Large")).toEqual(passed);
    expect(select.value).toBe("l");
    expect(seen).toEqual(["focus@size", "input@size", "change@size", "input@size", "change@size"]);
  });

  it("prefers an option's value to another option's label when typing into a select", async () => {
    const win = page(`<select id="pick"><option value="a">b</option><option value="b">a</option></select>`);
    expect(await run(win, "type", "id=pick", "b")).toEqual(passed);
    expect($<HTMLSelectElement>(win, "#pick").value).toBe("b");
  });

  it("fails to type into a select with no option of that value or label, naming both and changing nothing", async () => {
    const win = page(sizes);
    const seen = record(win.document, ["input", "change"]);
    expect(await run(win, "type", "id=size", "Huge")).toEqual(failed(`Element id=size is a select with no option whose value or label is "Huge"`));
    expect($<HTMLSelectElement>(win, "#size").value).toBe("s");
    expect(seen).toEqual([]);
  });

  it("waits for the option typed into a select to appear", async () => {
    const win = page(sizes);
    win.setTimeout(() => $(win, "#size").insertAdjacentHTML("beforeend", `<option value="xl">Extra large</option>`), 30);
    expect(await run(win, "type", "id=size", "Extra large", { implicitWaitMs: 2000 })).toEqual(passed);
    expect($<HTMLSelectElement>(win, "#size").value).toBe("xl");
  });

  it("does not type a disabled option into a select", async () => {
    const win = page(`<select id="size"><option>Small</option><option disabled>Large</option></select>`);
    expect(await run(win, "type", "id=size", "Large")).toEqual(failed(`Option "Large" of the select id=size is disabled`));
    expect($<HTMLSelectElement>(win, "#size").value).toBe("Small");
  });

  it("refuses removeSelection on a single select with Selenium's message", async () => {
    const win = page(sizes);
    expect(await run(win, "removeSelection", "id=size", "value=s")).toEqual(failed("Given element is not a multiple select type element"));
  });
});

describe("check, uncheck and submit", () => {
  it("ticks an unticked checkbox with a click and leaves a ticked one alone", async () => {
    const win = page(`<input id="news" type="checkbox"><input id="terms" type="checkbox" checked>`);
    const clicks = record(win.document, ["click", "change"]);
    expect(await run(win, "check", "id=news")).toEqual(passed);
    expect(await run(win, "check", "id=terms")).toEqual(passed);
    expect($<HTMLInputElement>(win, "#news").checked).toBe(true);
    expect($<HTMLInputElement>(win, "#terms").checked).toBe(true);
    expect(clicks).toEqual(["click@news", "change@news"]);
  });

  it("unticks a ticked checkbox and chooses a radio button", async () => {
    const win = page(`<input id="terms" type="checkbox" checked><input id="a" type="radio" name="r" checked><input id="b" type="radio" name="r">`);
    await run(win, "uncheck", "id=terms");
    await run(win, "check", "id=b");
    expect($<HTMLInputElement>(win, "#terms").checked).toBe(false);
    expect($<HTMLInputElement>(win, "#a").checked).toBe(false);
    expect($<HTMLInputElement>(win, "#b").checked).toBe(true);
  });

  it("submits the form of an element with submit, through its submit event", async () => {
    const win = page(`<form id="login"><input id="user"></form>`);
    const submitted = submissions(win);
    expect(await run(win, "submit", "id=user")).toEqual(passed);
    expect(await run(win, "submit", "id=login")).toEqual(passed);
    expect(submitted).toEqual([null, null]);
  });

  it("fails submit for an element in no form", async () => {
    const win = page(`<input id="loose">`);
    expect(await run(win, "submit", "id=loose")).toEqual(failed("Element id=loose is not a form nor in one, so there is nothing to submit"));
  });

  it("replaces an editable element's text with editContent, and refuses one that is not editable", async () => {
    const win = page(`<div id="ed" contenteditable="true">a</div><div id="plain">b</div>`);
    expect(await run(win, "editContent", "id=ed", "<b>new</b>")).toEqual(passed);
    expect($(win, "#ed").textContent).toBe("<b>new</b>");
    expect(await run(win, "editContent", "id=plain", "x")).toEqual(failed("Element is not content editable"));
  });
});

describe("assert and verify", () => {
  it("passes assertText on the element's text, trimmed, and fails with Selenium's message otherwise", async () => {
    const win = page(`<h1 id="t">  Your   cart  </h1>`);
    expect(await run(win, "assertText", "id=t", "Your cart")).toEqual(passed);
    expect(await run(win, "assertText", "id=t", "Your bag")).toEqual(failed("Actual value 'Your cart' did not match 'Your bag'"));
    expect(await run(win, "verifyText", "id=t", "Your bag")).toEqual(failed("Actual value 'Your cart' did not match 'Your bag'"));
  });

  it("reads a hidden element's text as empty, as WebDriver does", async () => {
    const win = page(`<p id="secret" style="display:none">hidden words</p>`);
    expect(await run(win, "assertText", "id=secret", "")).toEqual(passed);
  });

  it("fails assertNotText when the text is the one it must not be", async () => {
    const win = page(`<p id="t">Sold out</p>`);
    expect(await run(win, "assertNotText", "id=t", "In stock")).toEqual(passed);
    expect(await run(win, "verifyNotText", "id=t", "Sold out")).toEqual(failed("Actual value 'Sold out' did match 'Sold out'"));
  });

  it("compares a field's live value with assertValue and assertNotValue", async () => {
    const win = page(`<input id="qty" value="1">`);
    $<HTMLInputElement>(win, "#qty").value = "3";
    expect(await run(win, "assertValue", "id=qty", "3")).toEqual(passed);
    expect(await run(win, "assertValue", "id=qty", "1")).toEqual(failed("Actual value '3' did not match '1'"));
    expect(await run(win, "assertNotValue", "id=qty", "3")).toEqual(failed("Actual value '3' did match '3'"));
  });

  it("compares the page title, given as the target, with assertTitle and verifyTitle", async () => {
    const win = page("", "Checkout");
    expect(await run(win, "assertTitle", "Checkout")).toEqual(passed);
    expect(await run(win, "verifyTitle", "Cart")).toEqual(failed("Actual value 'Checkout' did not match 'Cart'"));
  });

  it("checks presence and absence of elements", async () => {
    const win = page(`<nav id="menu"></nav>`);
    expect(await run(win, "assertElementPresent", "id=menu")).toEqual(passed);
    expect(await run(win, "verifyElementPresent", "id=footer")).toEqual(failed("Element id=footer not found"));
    expect(await run(win, "assertElementNotPresent", "id=footer")).toEqual(passed);
    expect(await run(win, "assertElementNotPresent", "css=nav")).toEqual(failed("Unexpected element was found in page"));
  });

  it("checks a checkbox's state with assertChecked and assertNotChecked", async () => {
    const win = page(`<input id="on" type="checkbox" checked><input id="off" type="checkbox">`);
    expect(await run(win, "assertChecked", "id=on")).toEqual(passed);
    expect(await run(win, "assertChecked", "id=off")).toEqual(failed("Element is not checked, expected to be checked"));
    expect(await run(win, "assertNotChecked", "id=off")).toEqual(passed);
    expect(await run(win, "verifyNotChecked", "id=on")).toEqual(failed("Element is checked, expected to be unchecked"));
  });

  it("checks a select's chosen value and label", async () => {
    const win = page(`<select id="size"><option value="s">Small</option><option value="m" selected>Medium</option></select>`);
    expect(await run(win, "assertSelectedValue", "id=size", "m")).toEqual(passed);
    expect(await run(win, "assertSelectedValue", "id=size", "s")).toEqual(failed("Actual value 'm' did not match 's'"));
    expect(await run(win, "assertNotSelectedValue", "id=size", "m")).toEqual(failed("Actual value 'm' did match 'm'"));
    expect(await run(win, "assertSelectedLabel", "id=size", "Medium")).toEqual(passed);
    expect(await run(win, "verifySelectedLabel", "id=size", "Small")).toEqual(failed("Actual value 'Medium' did not match 'Small'"));
  });

  it("fails assertSelectedLabel on a select with nothing chosen", async () => {
    const win = page(`<select id="tags" multiple><option>red</option></select>`);
    expect(await run(win, "assertSelectedLabel", "id=tags", "red")).toEqual(failed("No option is selected in id=tags"));
  });

  it("calls a field editable unless it is disabled (itself or by its fieldset) or read-only", async () => {
    const win = page(`<input id="free"><input id="ro" readonly><fieldset disabled><input id="inside"></fieldset>`);
    expect(await run(win, "assertEditable", "id=free")).toEqual(passed);
    expect(await run(win, "assertEditable", "id=ro")).toEqual(failed("Element is not editable"));
    expect(await run(win, "verifyEditable", "id=inside")).toEqual(failed("Element is not editable"));
    expect(await run(win, "assertNotEditable", "id=inside")).toEqual(passed);
    expect(await run(win, "assertNotEditable", "id=free")).toEqual(failed("Element is editable"));
  });
});

describe("store", () => {
  it("stores an element's text, a field's value and the title under the variable named", async () => {
    const win = page(`<span id="total"> 42.00 </span><input id="qty" value="2">`, "Cart");
    expect(await run(win, "storeText", "id=total", "total")).toEqual({ state: "passed", stored: { name: "total", value: "42.00" } });
    expect(await run(win, "storeValue", "id=qty", "qty")).toEqual({ state: "passed", stored: { name: "qty", value: "2" } });
    // Selenium IDE's storeTitle names the variable in its target; an older file has it in the value.
    expect(await run(win, "storeTitle", "pageTitle")).toEqual({ state: "passed", stored: { name: "pageTitle", value: "Cart" } });
    expect(await run(win, "storeTitle", "", "old")).toEqual({ state: "passed", stored: { name: "old", value: "Cart" } });
  });

  it("fails a store command given no variable name", async () => {
    const win = page(`<span id="total">1</span>`);
    expect(await run(win, "storeText", "id=total", "")).toEqual(failed("storeText needs the name of the variable to store into as its value"));
  });

  it("stores an attribute from a locator@attribute target, null when the element lacks it", async () => {
    const win = page(`<a id="help" href="/help" data-sku="hat-3">Help</a>`);
    expect(await run(win, "storeAttribute", "id=help@data-sku", "sku")).toEqual({ state: "passed", stored: { name: "sku", value: "hat-3" } });
    expect(await run(win, "storeAttribute", "id=help@href", "link")).toEqual({ state: "passed", stored: { name: "link", value: "http://shop.test/help" } });
    expect(await run(win, "storeAttribute", "xpath=//a[@id='help']@title", "t")).toEqual({ state: "passed", stored: { name: "t", value: null } });
    expect(await run(win, "storeAttribute", "id=help", "x")).toEqual(
      failed(`storeAttribute needs a target of the form locator@attribute (e.g. id=logo@src); got "id=help"`),
    );
    expect(await run(win, "storeAttribute", "id=none@href", "x")).toEqual(failed("Element id=none not found"));
  });

  it("stores counts of matching elements as numbers, zero when none match", async () => {
    const win = page(`<ul><li>a</li><li>b</li><li>c</li></ul>`);
    expect(await run(win, "storeElementCount", "css=li", "n")).toEqual({ state: "passed", stored: { name: "n", value: 3 } });
    expect(await run(win, "storeElementCount", "css=table", "n")).toEqual({ state: "passed", stored: { name: "n", value: 0 } });
    expect(await run(win, "storeXpathCount", "//li", "x")).toEqual({ state: "passed", stored: { name: "x", value: 3 } });
    expect(await run(win, "storeXpathCount", "xpath=//ul", "x")).toEqual({ state: "passed", stored: { name: "x", value: 1 } });
  });

  it("counts with every locator strategy the way the locator finds the first", async () => {
    const win = page(`<input name="q" id="a"><input name="q"><a href="#">Help</a><a href="#">Help desk</a><a href="#">Shop</a>`);
    const count = async (target: string) => ((await run(win, "storeElementCount", target, "n")) as { stored: { value: unknown } }).stored.value;
    expect(await count("name=q")).toBe(2);
    expect(await count("id=a")).toBe(1);
    expect(await count("linkText=Help")).toBe(1);
    expect(await count("partialLinkText=Help")).toBe(2);
    expect(await run(win, "storeElementCount", "css=a[", "n")).toEqual(failed(expect.stringContaining("is not a valid CSS selector") as unknown as string));
  });
});

describe("waitFor", () => {
  it("waits for an element to be present, for the time in the value", async () => {
    const win = page(`<main></main>`);
    setTimeout(() => ($(win, "main").innerHTML = `<p id="done">done</p>`), 40);
    expect(await run(win, "waitForElementPresent", "id=done", "2000", { implicitWaitMs: 0 })).toEqual(passed);
    expect(await run(win, "waitForElementPresent", "id=never", "60")).toEqual(failed("Waiting for element id=never to be present: wait timed out after 60ms"));
  });

  it("waits for an element to become visible and fails naming the wait when it stays hidden", async () => {
    const win = page(`<div id="toast" style="display:none">Saved</div>`);
    expect(await run(win, "waitForElementVisible", "id=toast", "60")).toEqual(failed("Waiting for element id=toast to be visible: wait timed out after 60ms"));
    setTimeout(() => ($(win, "#toast").style.display = "block"), 40);
    expect(await run(win, "waitForElementVisible", "id=toast", "2000")).toEqual(passed);
  });

  it("waits for an element to go, passing at once when it is not there", async () => {
    const win = page(`<div id="spinner">...</div>`);
    expect(await run(win, "waitForElementNotPresent", "id=spinner", "60")).toEqual(failed("Waiting for element id=spinner to not be present: wait timed out after 60ms"));
    setTimeout(() => $(win, "#spinner").remove(), 40);
    expect(await run(win, "waitForElementNotPresent", "id=spinner", "2000")).toEqual(passed);
    expect(await run(win, "waitForElementNotPresent", "id=spinner", "0")).toEqual(passed);
  });

  it("waits for an element to be hidden, counting one that is not there as not visible", async () => {
    const win = page(`<div id="modal">Hi</div>`);
    expect(await run(win, "waitForElementNotVisible", "id=modal", "60")).toEqual(failed("Waiting for element id=modal to not be visible: wait timed out after 60ms"));
    setTimeout(() => $(win, "#modal").setAttribute("hidden", ""), 40);
    expect(await run(win, "waitForElementNotVisible", "id=modal", "2000")).toEqual(passed);
    expect(await run(win, "waitForElementNotVisible", "id=nothing", "60")).toEqual(passed);
  });

  it("waits for a field to become editable, and to stop being so", async () => {
    const win = page(`<input id="code" disabled>`);
    setTimeout(() => ($<HTMLInputElement>(win, "#code").disabled = false), 40);
    expect(await run(win, "waitForElementEditable", "id=code", "2000")).toEqual(passed);
    expect(await run(win, "waitForElementNotEditable", "id=code", "60")).toEqual(failed("Waiting for element id=code to not be editable: wait timed out after 60ms"));
  });

  it("waits for an element's text with waitForText", async () => {
    const win = page(`<p id="status">Loading</p>`);
    setTimeout(() => ($(win, "#status").textContent = "Ready"), 40);
    expect(await run(win, "waitForText", "id=status", "Ready", { implicitWaitMs: 2_000 })).toEqual(passed);
    expect(await run(win, "waitForText", "id=status", "Done")).toEqual(failed("Waiting for text 'Done' in element id=status: the text is 'Ready'"));
  });

  it("rejects a wait whose value is not a number of milliseconds", async () => {
    const win = page(`<p id="x">x</p>`);
    expect(await run(win, "waitForElementVisible", "id=x", "soon")).toEqual(
      failed(`waitForElementVisible needs the time to wait in milliseconds as its value (e.g. 30000); got "soon"`),
    );
    expect(await run(win, "waitForElementPresent", "id=x", "")).toEqual(
      failed(`waitForElementPresent needs the time to wait in milliseconds as its value (e.g. 30000); got ""`),
    );
  });
});

describe("relocating an element by its fingerprint (CONTRACT section 18)", () => {
  // The page at recording, and at the next release: the id renamed, a wrapper added, a sibling inserted before.
  const recorded = `<main><h1>Cart</h1><p class="row"><span>Total 3</span><button id="buy" class="primary" type="button">Buy now</button></p></main>`;
  const released = `<main><h1>Cart</h1><div class="promo"><button type="button" id="help">Help</button></div><section><p class="row"><span>Total 3</span><button id="purchase" class="primary btn" type="button">Buy now</button></p></section></main>`;

  it("clicks the element relocated by similarity when no locator finds it, and says by which locator and score", async () => {
    const before = page(recorded);
    const fingerprint = fingerprintOf($(before, "#buy"));
    const win = page(released);
    const clicks = record(win.document, ["click"]);
    const answer = await run(win, "click", "id=buy", "", { implicitWaitMs: 0, fingerprint });
    expect(answer).toMatchObject({ state: "passed", healed: { locator: expect.any(String), score: expect.any(Number) } });
    const healed = (answer as { healed: { locator: string; score: number } }).healed;
    expect(healed.score).toBeGreaterThan(0.6);
    expect(healed.score).toBeLessThan(1);
    expect(clicks).toEqual(["click@purchase"]);
  });

  it("fails naming the nearest candidates when nothing resembles the recorded element", async () => {
    const fingerprint = fingerprintOf($(page(recorded), "#buy"));
    const answer = await run(page(`<main><p>Sold out</p><a href="#">Home</a></main>`), "click", "id=buy", "", { implicitWaitMs: 0, fingerprint });
    expect(answer).toEqual(failed(expect.stringMatching(/^Element id=buy not found\. No element resembles the recorded one closely enough .*nearest: /)));
  });

  it("does not take the target's match when it is a neighbour that took the recorded element's place, and heals by the next locator", async () => {
    const list = (items: string[]) => `<ul>${items.map((item) => `<li><button type="button" id="${item.toLowerCase()}">${item}</button></li>`).join("")}</ul>`;
    const fingerprint = fingerprintOf($(page(list(["Tea", "Coffee", "Cocoa"])), "#coffee"));
    const win = page(list(["Water", "Tea", "Coffee", "Cocoa"]));
    const clicks = record(win.document, ["click"]);
    const answer = await run(win, "click", "css=li:nth-of-type(2) > button", "", { implicitWaitMs: 0, fingerprint, targets: ["id=coffee"] });
    expect(answer).toMatchObject({ state: "passed", healed: { locator: "id=coffee", score: 1 } });
    expect(clicks).toEqual(["click@coffee"]);
  });

  it("takes the target's match as always when it is still the recorded element", async () => {
    const fingerprint = fingerprintOf($(page(recorded), "#buy"));
    const win = page(recorded);
    const clicks = record(win.document, ["click"]);
    expect(await run(win, "click", "id=buy", "", { implicitWaitMs: 0, fingerprint, targets: ["css=.primary"] })).toEqual({ state: "passed" });
    expect(clicks).toEqual(["click@buy"]);
  });

  it("gives a relocated element's new locator in a declared strategy when the element carries its attribute, as the recorder would build it", async () => {
    const sku = { name: "sku", css: '[data-sku="{value}"]', attribute: "data-sku" };
    const fingerprint = fingerprintOf($(page(recorded), "#buy"));
    const win = page(released.replace('id="purchase"', 'id="purchase" data-sku="BUY-1"'));
    const clicks = record(win.document, ["click"]);
    const answer = await run(win, "click", "id=buy", "", { implicitWaitMs: 0, fingerprint, strategies: [sku] });
    expect(answer).toMatchObject({ state: "passed", healed: { locator: "sku=BUY-1" } });
    expect(clicks).toEqual(["click@purchase"]);
    // Without the declaration, the same relocation names a built-in locator.
    const plain = await run(page(released.replace('id="purchase"', 'id="purchase" data-sku="BUY-1"')), "click", "id=buy", "", { implicitWaitMs: 0, fingerprint });
    expect((plain as { healed: { locator: string } }).healed.locator).not.toMatch(/^sku=/);
  });

  it("names the nearest candidates in a declared strategy too when none is close enough", async () => {
    const sku = { name: "sku", css: '[data-sku="{value}"]', attribute: "data-sku" };
    const fingerprint = fingerprintOf($(page(recorded), "#buy"));
    const answer = await run(page(`<main><p>Sold out</p><button type="button" data-sku="NOTIFY">Notify me</button></main>`), "click", "id=buy", "", { implicitWaitMs: 0, fingerprint, strategies: [sku] });
    expect(answer).toEqual(failed(expect.stringMatching(/nearest: .*sku=NOTIFY \(/)));
  });

  it("ignores a fingerprint that is not one, failing as Selenium does", async () => {
    const answer = await run(page(released), "click", "id=buy", "", { implicitWaitMs: 0, fingerprint: { tag: "button" } });
    expect(answer).toEqual(failed("Element id=buy not found"));
  });
});
