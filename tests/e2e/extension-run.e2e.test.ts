// Runs in the browser extension, end to end: the built extension beside plugin extensions in
// headless Chromium, a test site on 127.0.0.1 in the tab under test. The test plays the user:
// it loads a project from a file in the IDE window, picks a test and presses Play; the page
// commands act on the tab (its DOM is read afterwards), the plugins' commands reach them with
// the tab's ids, and the states show in the window. The plugins behave as Selenium IDE v3's
// do: flat registration with `payload: null`, PUT /playback/var while handling
// playbackStarted, answers to `execute` read as the anchor read them.
import type { Worker } from "playwright-core";
import { beforeEach, describe, expect, it } from "vitest";
import { launchWithExtensions } from "../../drivers/host/chromium.ts";
import { IDE_EXTENSION_ID } from "../../drivers/webextension/identity.ts";
import { WINDOW_PAGE } from "../../drivers/webextension/messages.ts";
import { NEVER_ANSWER, profileDir, sendFrom, serveTestSite, workerOf, workerWhere } from "../support/extensions.ts";
import { loadProjectFile, useIdeExtension } from "../support/ideExtension.ts";

const IDE_PAGE_URL = `chrome-extension://${IDE_EXTENSION_ID}/${WINDOW_PAGE}`;

type Command = { id: string; command: string; target: string; value: string; targets?: string[][] };
const cmd = (id: string, command: string, target = "", value = "", targets?: string[][]): Command =>
  targets ? { id, command, target, value, targets } : { id, command, target, value };

// The plugin "Alpha checks" registers three commands: one passes, one fails, one never answers.
const ALPHA = {
  name: "Alpha checks",
  version: "3.0.0",
  commands: [
    { id: "alphaPass", name: "alpha pass" },
    { id: "alphaFail", name: "alpha fail" },
    { id: "alphaSilent", name: "alpha silent" },
  ],
};
const DEAF = { name: "Deaf plugin", version: "1.0.0", commands: [{ id: "deafCheck", name: "deaf check" }] };
const BETA = { name: "Beta watcher", version: "1.0.0" };

function project(origin: string) {
  return {
    id: "runs-in-the-tab",
    name: "Runs in the tab",
    version: "2.0",
    url: origin,
    suites: [],
    urls: [origin],
    plugins: [],
    tests: [
      {
        id: "t-main",
        name: "plays in the tab",
        commands: [
          cmd("m-open", "open", "/form"),
          cmd("m-type", "type", "id=name", "Ada"),
          // The target matches nothing; the command's alternative locators find the button.
          cmd("m-click", "click", "id=missing", "", [["id=missing", "id"], ["css=#go", "css:finder"]]),
          cmd("m-assert", "assertText", "id=result", "Hello Ada"),
          cmd("m-script", "executeScript", "return document.title + ' / ' + ${who}", "title"),
          cmd("m-async", "executeAsyncScript", "new Promise((resolve) => setTimeout(() => resolve(6 * 7), 10))", "answer"),
          cmd("m-if", "if", "${answer} === 42"),
          cmd("m-store", "store", "yes", "branch"),
          cmd("m-end", "end"),
          cmd("m-plugin", "alphaPass", "${title}"),
        ],
      },
      {
        id: "t-nav",
        name: "follows a navigation",
        commands: [
          cmd("n-open", "open", "/form"),
          cmd("n-click", "click", "id=next"),
          cmd("n-assert", "assertText", "id=heading", "Second page"),
          cmd("n-type", "type", "id=search", "found"),
        ],
      },
      {
        id: "t-frame",
        name: "plays in a frame",
        commands: [
          cmd("f-open", "open", "/framed"),
          cmd("f-select", "selectFrame", "id=inner"),
          cmd("f-type", "type", "id=deep", "in the frame"),
          cmd("f-top", "selectFrame", "relative=top"),
          cmd("f-assert", "assertText", "id=outer", "Outer"),
          cmd("f-late", "selectFrame", "id=late"),
          cmd("f-late-type", "type", "id=deep", "late"),
          cmd("f-back", "selectFrame", "relative=top"),
          cmd("f-size", "setWindowSize", "800x600"),
        ],
      },
      {
        id: "t-assert",
        name: "fails an assertion",
        commands: [
          cmd("a-open", "open", "/form"),
          cmd("a-assert", "assertText", "id=result", "Goodbye"),
          cmd("a-type", "type", "id=name", "never typed"),
        ],
      },
      {
        id: "t-plugin-error",
        name: "a plugin's command fails",
        commands: [cmd("e-fail", "alphaFail", "x"), cmd("e-open", "open", "/form")],
      },
      {
        id: "t-plugin-silent",
        name: "a plugin never answers",
        commands: [cmd("s-silent", "alphaSilent", "x"), cmd("s-open", "open", "/form")],
      },
      {
        id: "t-deaf",
        name: "a plugin that does not listen",
        commands: [cmd("d-deaf", "deafCheck", "x"), cmd("d-open", "open", "/form")],
      },
      {
        id: "t-unknown",
        name: "a command the extension cannot play",
        commands: [cmd("u-open", "open", "/form"), cmd("u-confirm", "chooseOkOnNextConfirmation", ""), cmd("u-type", "type", "id=name", "never")],
      },
      {
        id: "t-long",
        name: "waits between two page commands",
        commands: [
          cmd("l-open", "open", "/form"),
          cmd("l-before", "type", "id=name", "before"),
          cmd("l-step", "type", "id=name", "stepped"),
          cmd("l-after", "type", "id=name", "after"),
          cmd("l-pause", "pause", "20000"),
          cmd("l-last", "type", "id=name", "last"),
        ],
      },
    ],
  };
}

const ide = useIdeExtension({ plugins: ["alpha", "beta", { name: "deaf", listens: false }], site: serveTestSite, start: "/second" });

let alpha: Worker;
let beta: Worker;
let deaf: Worker;

beforeEach(async () => {
  [alpha, beta, deaf] = ide.workers;
  // Registered as Selenium IDE v3's plugins register: the fields flat, and `payload: null`.
  expect(await ask(alpha, { uri: "/register", verb: "post", payload: null, ...ALPHA })).toBe(true);
  expect(await ask(beta, { uri: "/register", verb: "post", payload: null, ...BETA })).toBe(true);
  expect(await ask(deaf, { uri: "/register", verb: "post", payload: null, ...DEAF })).toBe(true);
  await alpha.evaluate(
    `plugin.setExecuteAnswers({ alphaPass: true, alphaFail: { error: "alpha says no" }, alphaSilent: ${JSON.stringify(NEVER_ANSWER)} })`,
  );
  await alpha.evaluate(`plugin.setVariableOnStart("who", ${JSON.stringify(JSON.stringify("Grace"))})`);
  await loadProject();
});

// ---- helpers ----------------------------------------------------------------------------

async function ask(plugin: Worker, message: unknown): Promise<unknown> {
  const result = await sendFrom(plugin, IDE_EXTENSION_ID, message);
  if ("rejected" in result) throw new Error(`The request was rejected by Chromium: ${result.rejected}`);
  return result.reply;
}

/** The user picks the project's file in the IDE window. */
async function loadProject() {
  const file = project(ide.site.origin);
  await loadProjectFile(ide.window, file);
}

/** The user picks a test (the window shows it) and, unless only picking, presses Play. */
async function play(testId: string, options: { pickOnly?: boolean } = {}) {
  await ide.window.locator(`[data-testid="test-item"][data-test-id="${testId}"] button`).click();
  if (!options.pickOnly) await ide.window.getByRole("button", { name: "Play", exact: true }).click();
}

/** Sets (or with `on: false` clears) the breakpoint before a command; breakpoints outlive a test, so the button's state is read first. */
async function breakpointBefore(testId: string, commandId: string, on = true) {
  await play(testId, { pickOnly: true });
  const button = row(commandId).getByRole("button", { name: /Breakpoint before command/ });
  if ((await button.getAttribute("aria-pressed")) !== String(on)) await button.click();
  await expect.poll(() => button.getAttribute("aria-pressed")).toBe(String(on));
}

const row = (id: string) => ide.window.locator(`[data-testid="command-row"][data-command-id="${id}"]`);
const stateOf = (id: string) => row(id).locator('[data-testid="command-state"]').textContent();
const messageOf = (id: string) => row(id).locator('[data-testid="command-message"]').textContent();
const runStatus = () => ide.window.locator('[data-testid="run-status"]').getAttribute("data-status");
const runResult = () => ide.window.locator('[data-testid="run-result"]').textContent();
const variable = (name: string) =>
  ide.window.locator(`[data-testid="variable"][data-name="${name}"] [data-testid="variable-value"]`).textContent();

async function ended(result: "passed" | "failed") {
  await expect.poll(runStatus, { timeout: 20_000 }).toBe("ended");
  expect(await runResult()).toContain(result);
}

async function received(plugin: Worker): Promise<Array<{ from: string; message: Record<string, any> }>> {
  return (await plugin.evaluate("plugin.received")) as Array<{ from: string; message: Record<string, any> }>;
}

const eventsOf = async (plugin: Worker, event: string) => (await received(plugin)).filter((r) => r.message.event === event);

/** The browser's ids of the tab under test, as the IDE window's extension sees them. */
async function tabIds(): Promise<{ tabId: number; windowId: number }> {
  const url = ide.tab.url();
  const found = (await ide.window.evaluate(`chrome.tabs.query({ windowType: "normal" })`)) as Array<{ id: number; windowId: number; url: string }>;
  const match = found.find((t) => t.url === url);
  if (!match) throw new Error(`No tab shows ${url}.`);
  return { tabId: match.id, windowId: match.windowId };
}

// ---- tests ------------------------------------------------------------------------------

describe("a run in the browser extension", () => {
  it("plays page commands in the tab under test, executes the plugin's command with the tab's ids, and shows every state", async () => {
    await play("t-main");
    await ended("passed");
    for (const id of ["m-open", "m-type", "m-click", "m-assert", "m-script", "m-async", "m-if", "m-store", "m-end", "m-plugin"]) {
      expect(await stateOf(id)).toContain("passed");
    }
    // The page under test was played on: its DOM says so.
    expect(ide.tab.url()).toBe(`${ide.site.origin}/form`);
    expect(await ide.tab.evaluate(`document.getElementById("name").value`)).toBe("Ada");
    expect(await ide.tab.evaluate(`document.getElementById("result").textContent`)).toBe("Hello Ada");
    // executeScript's value went into `title`, with the variable the plugin put as it started;
    // executeAsyncScript's into `answer`, and the condition read it in the page.
    expect(JSON.parse((await variable("title"))!)).toBe("Form page / Grace");
    expect(JSON.parse((await variable("answer"))!)).toBe(42);
    expect(JSON.parse((await variable("branch"))!)).toBe("yes");
    expect(await alpha.evaluate("plugin.variableReplies")).toEqual([true]);
    // The plugin's command came with its target replaced and the tab's ids.
    const executed = (await received(alpha)).filter((r) => r.message.action === "execute");
    expect(executed).toHaveLength(1);
    expect(executed[0].message.command).toEqual({ command: "alphaPass", target: "Form page / Grace", value: "" });
    expect(executed[0].message.options).toMatchObject({ ...(await tabIds()), frameId: 0, isNested: false });
    // Every plugin heard the run start and end, once.
    for (const plugin of [alpha, beta]) {
      expect(await eventsOf(plugin, "playbackStarted")).toHaveLength(1);
      await expect.poll(async () => (await eventsOf(plugin, "playbackStopped")).length).toBe(1);
    }
  });

  it("follows a navigation in the middle of the run", async () => {
    await play("t-nav");
    await ended("passed");
    for (const id of ["n-open", "n-click", "n-assert", "n-type"]) expect(await stateOf(id)).toContain("passed");
    expect(ide.tab.url()).toBe(`${ide.site.origin}/second`);
    expect(await ide.tab.evaluate(`document.getElementById("search").value`)).toBe("found");
  });

  it("types in a frame it selected, waits for a frame the page adds late by its id, comes back to the top, and sets the window's size", async () => {
    await play("t-frame");
    await ended("passed");
    for (const id of ["f-open", "f-select", "f-type", "f-top", "f-assert", "f-late", "f-late-type", "f-back", "f-size"]) expect(await stateOf(id)).toContain("passed");
    const frame = ide.tab.frames().find((f) => f.url().endsWith("/inner"));
    expect(await frame!.evaluate(`document.getElementById("deep").value`)).toBe("in the frame");
    const late = ide.tab.frames().find((f) => f.url().endsWith("/inner?late"));
    expect(await late!.evaluate(`document.getElementById("deep").value`)).toBe("late");
    expect(await ide.tab.evaluate("outerWidth")).toBe(800);
  });

  it("ends the run at a failing assertText, and the commands after it keep no state", async () => {
    await play("t-assert");
    await ended("failed");
    expect(await stateOf("a-open")).toContain("passed");
    expect(await stateOf("a-assert")).toContain("failed");
    expect(await messageOf("a-assert")).toContain("Goodbye");
    expect(await stateOf("a-type")).not.toMatch(/passed|failed|fatal|pending/);
    expect(await ide.tab.evaluate(`document.getElementById("name").value`)).toBe("");
  });

  it("fails a command the extension cannot play, naming it", async () => {
    await play("t-unknown");
    await ended("failed");
    expect(await stateOf("u-confirm")).toContain("failed");
    expect(await messageOf("u-confirm")).toContain("chooseOkOnNextConfirmation");
    expect(await messageOf("u-confirm")).toContain("cannot play");
  });

  it("fails the plugin's command that answers { error }, with its message", async () => {
    await play("t-plugin-error");
    await ended("failed");
    expect(await stateOf("e-fail")).toContain("failed");
    expect(await messageOf("e-fail")).toContain("alpha says no");
    expect(await stateOf("e-open")).not.toMatch(/passed|failed|fatal/);
  });

  it("ends the run fatal when the plugin's command is never answered, after the limit", async () => {
    await play("t-plugin-silent");
    await ended("failed");
    expect(await stateOf("s-silent")).toContain("fatal");
    expect(await messageOf("s-silent")).toContain(`${ALPHA.name} did not respond`);
  });

  it("ends the run fatal when the plugin does not listen (Chromium: receiving end does not exist)", async () => {
    await play("t-deaf");
    await ended("failed");
    expect(await stateOf("d-deaf")).toContain("fatal");
    expect(await messageOf("d-deaf")).toContain(`${DEAF.name} did not respond`);
  });

  it("pauses at a breakpoint, steps, and ends fatal saying what to do when the tab goes to a page it may not script", async () => {
    await breakpointBefore("t-long", "l-step");
    await play("t-long");
    await expect.poll(runStatus).toBe("paused");
    expect(await stateOf("l-before")).toContain("passed");
    expect(await ide.tab.evaluate(`document.getElementById("name").value`)).toBe("before");
    await ide.window.getByRole("button", { name: "Step" }).click();
    await expect.poll(() => stateOf("l-step")).toContain("passed");
    await expect.poll(runStatus).toBe("paused");
    expect(await ide.tab.evaluate(`document.getElementById("name").value`)).toBe("stepped");
    // Paused again: the user's tab goes where the extension may not script.
    await ide.tab.goto("chrome://version");
    await ide.window.getByRole("button", { name: "Resume" }).click();
    await ended("failed");
    expect(await stateOf("l-after")).toContain("fatal");
    expect(await messageOf("l-after")).toMatch(/page under test is gone: .*may not script .*chrome:\/\/.*press Play again/);
  });

  it("ends the run fatal when the tab under test is closed", async () => {
    await breakpointBefore("t-long", "l-step");
    await play("t-long");
    await expect.poll(runStatus).toBe("paused");
    await ide.tab.close();
    await ide.window.getByRole("button", { name: "Resume" }).click();
    await ended("failed");
    expect(await stateOf("l-step")).toContain("fatal");
    expect(await messageOf("l-step")).toMatch(/tab under test was closed.*press Play again/);
  });

  it("stops the run when the IDE window closes, and every plugin hears playbackStopped once", async () => {
    await breakpointBefore("t-long", "l-step", false);
    await play("t-long");
    await expect.poll(() => stateOf("l-pause")).toContain("pending");
    await ide.window.close();
    for (const plugin of [alpha, beta]) {
      await expect.poll(async () => (await eventsOf(plugin, "playbackStopped")).length).toBe(1);
    }
    // The window is gone: nothing more comes, and the tab keeps what the run did before.
    expect(await ide.tab.evaluate(`document.getElementById("name").value`)).toBe("after");
    for (const plugin of [alpha, beta]) expect(await eventsOf(plugin, "playbackStopped")).toHaveLength(1);
  });
});

describe("the README's example plugin with a run", () => {
  it("registers its command, and a project that uses it plays in the tab with the states showing", async () => {
    const exampleDir = new URL("../../examples/plugin-extension/", import.meta.url).pathname;
    await ide.context.close();
    ide.context = await launchWithExtensions(profileDir(), [ide.ideDir, exampleDir]);
    await workerOf(ide.context, IDE_EXTENSION_ID);
    ide.tab = ide.context.pages()[0] ?? (await ide.context.newPage());
    await ide.tab.goto(`${ide.site.origin}/second`);
    const example = await workerWhere(ide.context, (w) => !w.url().includes(IDE_EXTENSION_ID), "the example plugin");
    const opened = ide.context.waitForEvent("page", { predicate: (p) => p.url() === IDE_PAGE_URL });
    expect(await example.evaluate("hello()")).toEqual({ open: true, health: false, register: true, strategy: true, log: true });
    ide.window = await opened;
    ide.window.on("pageerror", (error) => ide.windowErrors.push(error.message));
    await ide.window.waitForSelector('[data-testid="project-name"]');
    const file = {
      id: "example-run",
      name: "Uses the example plugin",
      url: ide.site.origin,
      tests: [
        {
          id: "x-test",
          name: "checks with the example plugin",
          commands: [cmd("x-open", "open", "/form"), cmd("x-type", "type", "id=name", "Lin"), cmd("x-check", "exampleExtensionCheck", "the form")],
        },
      ],
    };
    await loadProjectFile(ide.window, file);
    await play("x-test");
    await ended("passed");
    expect(await stateOf("x-check")).toContain("passed");
    const { tabId } = await tabIds();
    expect(await messageOf("x-check")).toContain(`checked "the form" in tab ${tabId}`);
    expect(await ide.tab.evaluate(`document.getElementById("name").value`)).toBe("Lin");
  });
});
