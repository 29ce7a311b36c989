// Recording in the browser extension, end to end (CONTRACT section 14): the built extension in
// headless Chromium, a test site on 127.0.0.1 in the tab under test. The test plays the user:
// it presses Record in the IDE window, acts in the tab with playwright's mouse and keyboard
// (DevTools input: trusted events, as a person's), presses Stop recording, compares the
// recorded commands, and plays the recorded test back green (the tricky page's too). Closing the tab mid-recording
// stops it, keeping what was recorded.
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, it } from "vitest";
import { IDE_EXTENSION_ID } from "../../drivers/webextension/identity.ts";
import { sendFrom, serveTestSite, workerOf } from "../support/extensions.ts";
import { useIdeExtension, playToTheEnd } from "../support/ideExtension.ts";

const ide = useIdeExtension({ plugins: ["opener"], site: serveTestSite, start: "/order" });

beforeEach(async () => {
  // A new project has no test: the user adds one to record into.
  await ide.window.getByRole("button", { name: "New test" }).click();
  const name = ide.window.locator('[data-testid="test-name"]');
  await name.fill("recorded");
  await name.press("Enter");
  await ide.window.getByRole("button", { name: "Record", exact: true }).waitFor();
});

/** The displayed test's commands, as the IDE window's core holds them. */
async function recordedCommands(): Promise<string[]> {
  const rows = ide.window.locator('[data-testid="command-row"]');
  const texts = await rows.allTextContents();
  return texts.map((t) => t.replace(/\s+/g, " ").trim());
}

/** The user brings the tab under test to the front, as a person clicks into it. */
async function inTheTab() {
  await ide.tab.bringToFront();
}

describe("recording in the browser extension", () => {
  it("records clicks, typing and a select in the tab under test, and the recorded test plays back green", async () => {
    await inTheTab();
    await ide.window.getByRole("button", { name: "Record", exact: true }).click();
    await ide.window.getByRole("button", { name: "Stop recording" }).waitFor();
    await expect.poll(async () => (await recordedCommands()).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);

    await ide.tab.click("#name");
    await ide.tab.keyboard.type("Ada");
    await ide.tab.keyboard.press("Tab"); // to the select, which the arrow key changes as a person's would
    await ide.tab.keyboard.press("ArrowDown");
    await ide.tab.click("#go");
    await expect.poll(async () => (await recordedCommands()).length, { timeout: 10_000 }).toBe(6);
    await ide.window.getByRole("button", { name: "Stop recording" }).click();
    await ide.window.getByRole("button", { name: "Record", exact: true }).waitFor();

    const commands = await recordedCommands();
    expect(commands[0]).toMatch(/open.*\/order/);
    expect(commands[1]).toMatch(/setWindowSize.*\d+x\d+/);
    expect(commands[2]).toMatch(/click.*id=name/);
    expect(commands[3]).toMatch(/type.*id=name.*Ada/);
    expect(commands[4]).toMatch(/select.*id=size.*label=Medium/);
    expect(commands[5]).toMatch(/click.*id=go/);

    // Played back: the page takes the order typed and chosen.
    await ide.tab.goto(`${ide.site.origin}/second`);
    await inTheTab();
    await playToTheEnd(ide.window, 20_000);
    expect(await ide.window.locator('[data-testid="run-result"]').textContent()).toContain("passed");
    expect(await ide.tab.locator("#result").textContent()).toBe("Ada orders Medium");
  });

  it("keeps what was typed into the field that still has the focus when Stop recording is pressed, as its type", async () => {
    await inTheTab();
    await ide.window.getByRole("button", { name: "Record", exact: true }).click();
    await expect.poll(async () => (await recordedCommands()).length, { timeout: 10_000 }).toBe(2);
    await ide.tab.click("#name");
    await ide.tab.keyboard.type("Grace");
    await expect.poll(async () => (await recordedCommands()).length, { timeout: 10_000 }).toBe(3);
    // The field keeps the focus: its change never comes. The user goes to the IDE window and stops.
    await ide.window.bringToFront();
    await ide.window.getByRole("button", { name: "Stop recording" }).click();
    await ide.window.getByRole("button", { name: "Record", exact: true }).waitFor();
    await expect.poll(async () => (await recordedCommands()).length, { timeout: 10_000 }).toBe(4);
    const commands = await recordedCommands();
    expect(commands[2]).toMatch(/click.*id=name/);
    expect(commands[3]).toMatch(/type.*id=name.*Grace/);
    expect(await ide.tab.locator("#name").evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it("records with the project's locator order, and a change of the order in the IDE window during a recording changes the next target", async () => {
    await inTheTab();
    await ide.window.getByRole("button", { name: "Record", exact: true }).click();
    await expect.poll(async () => (await recordedCommands()).length, { timeout: 10_000 }).toBe(2);
    await ide.tab.click("#go");
    await expect.poll(async () => (await recordedCommands()).length, { timeout: 10_000 }).toBe(3);
    expect((await recordedCommands())[2]).toMatch(/click.*id=go/);

    // The user moves the button-text builder above id, one step at a time, as the list shows it.
    await ide.window.bringToFront();
    await ide.window.getByText("Locator order", { exact: true }).click();
    const names = ide.window.getByRole("list", { name: "Locator order" }).locator("code");
    for (let step = 0; step < 5; step++) {
      const at = (await names.allTextContents()).indexOf("xpath:text");
      await ide.window.getByRole("button", { name: "Move xpath:text up" }).click();
      await expect.poll(async () => (await names.allTextContents()).indexOf("xpath:text")).toBe(at - 1);
    }
    expect((await names.allTextContents()).slice(0, 3)).toEqual(["css:testId", "css:data-attr", "xpath:text"]);

    await inTheTab();
    await ide.tab.click("#go");
    await expect.poll(async () => (await recordedCommands()).length, { timeout: 10_000 }).toBe(4);
    expect((await recordedCommands())[3]).toMatch(/click.*xpath=\/\/button\[normalize-space\(\)='Order'\]/);
    await ide.window.getByRole("button", { name: "Stop recording" }).click();
  });

  it("stops when the tab under test is closed, keeping what was recorded, and says so", async () => {
    await inTheTab();
    await ide.window.getByRole("button", { name: "Record", exact: true }).click();
    await expect.poll(async () => (await recordedCommands()).length, { timeout: 10_000 }).toBe(2);
    await ide.tab.click("#go");
    await expect.poll(async () => (await recordedCommands()).length, { timeout: 10_000 }).toBe(3);
    await ide.tab.close();
    await ide.window.getByRole("button", { name: "Record", exact: true }).waitFor();
    expect((await recordedCommands())[2]).toMatch(/click.*id=go/);
    await expect.poll(() => ide.window.locator("body").textContent()).toMatch(/tab under test was closed/);
  });
});

/** Each locator of `targets` resolved in `page`'s document (or the frame's): how many elements it finds, and whether the first is `expected`. */
async function resolveEach(page: Page, targets: Array<[string, string]>, expected: string, frame = false): Promise<Array<[string, number, boolean]>> {
  const scope = frame ? page.frameLocator("#frame").locator("html") : page.locator("html");
  return scope.evaluate(
    (root, [list, wanted]) => {
      const doc = root.ownerDocument;
      // "A >>> B": B inside the open shadow roots of what A found (CONTRACT section 19).
      const deep = (chain: string): Element[] => {
        let scopes: Array<Document | ShadowRoot> = [doc];
        let found: Element[] = [];
        for (const part of chain.split(" >>> ")) {
          found = scopes.flatMap((scope) => Array.from(scope.querySelectorAll(part)));
          scopes = found.map((el) => el.shadowRoot).filter((r): r is ShadowRoot => r !== null);
        }
        return found;
      };
      const want = deep(wanted as string)[0];
      const find = (locator: string): Element[] => {
        const at = locator.indexOf("=");
        const [kind, value] = [locator.slice(0, at), locator.slice(at + 1)];
        if (kind === "id") return Array.from(doc.querySelectorAll("[id]")).filter((e) => e.id === value);
        if (kind === "name") return Array.from(doc.getElementsByName(value));
        if (kind === "css") return deep(value);
        if (kind === "linkText") return Array.from(doc.querySelectorAll("a")).filter((a) => a.textContent?.trim() === value);
        if (kind === "xpath") {
          const found = doc.evaluate(value, doc, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
          return Array.from({ length: found.snapshotLength }, (_, i) => found.snapshotItem(i) as Element);
        }
        return [];
      };
      return (list as Array<[string, string]>).map(([locator]) => {
        const found = find(locator);
        return [locator, found.length, found[0] === want] as [string, number, boolean];
      });
    },
    [targets, expected] as const,
  );
}

describe("recording a page of tricky cases in the browser extension", () => {
  it("records duplicate ids, quotes, selects, a contenteditable, a button in a shadow root and a frame, each target finding its element, and the test plays back green", async () => {
    await ide.tab.goto(`${ide.site.origin}/tricky`);
    await inTheTab();
    await ide.window.getByRole("button", { name: "Record", exact: true }).click();
    await ide.window.getByRole("button", { name: "Stop recording" }).waitFor();
    await expect.poll(async () => (await recordedCommands()).length, { timeout: 10_000 }).toBe(2);
    const after = (n: number) => expect.poll(async () => (await recordedCommands()).length, { timeout: 10_000 }).toBe(n);

    await ide.tab.getByText("Second 'single' button").click();
    await after(3);
    await ide.tab.getByText('First "quoted" button').click();
    await after(4);
    await ide.tab.focus("#pick");
    await ide.tab.keyboard.press("ArrowDown");
    await after(5);
    // A click on an option of a multiple select: its addSelection, then the click, as v3 records it.
    await ide.tab.locator("#many option", { hasText: "Green" }).click();
    await after(7);
    await ide.tab.locator("#many option", { hasText: "Blue" }).click({ modifiers: ["Control"] });
    await after(9);
    await ide.tab.click("#editor");
    await after(10);
    await ide.tab.keyboard.press("End");
    await ide.tab.keyboard.type(" now");
    await ide.tab.click("#plain");
    await after(12); // editContent as the editor loses the focus, then the click
    await ide.tab.getByText("In the shadow").click();
    await after(13);
    await ide.tab.frameLocator("#frame").locator("#deep").click();
    await ide.tab.keyboard.type("deep");
    await ide.tab.keyboard.press("Tab");
    await after(16); // selectFrame, click, type
    await ide.window.getByRole("button", { name: "Stop recording" }).click();
    await ide.window.getByRole("button", { name: "Record", exact: true }).waitFor();

    // The commands as recorded, targets read by a plugin in control (GET /record/command).
    const plugin = await workerOf(ide.context, ide.extensions[0].id);
    const control = sendFrom(plugin, IDE_EXTENSION_ID, { uri: "/control", verb: "post", payload: { name: "Reader", version: "1.0.0" } });
    await ide.window.waitForSelector('[data-testid="dialog"][data-kind="controlConsent"]');
    await ide.window.getByRole("button", { name: "Restart and allow access" }).click();
    expect(await control).toEqual({ reply: true });
    const answer = (await sendFrom(plugin, IDE_EXTENSION_ID, { uri: "/record/command", verb: "get" })) as {
      reply: { commands: Array<{ command: string; target: string; value: string; targets: Array<[string, string]> }> };
    };
    const commands = answer.reply.commands;
    expect(commands.map((c) => c.command)).toEqual([
      "open",
      "setWindowSize",
      "click",
      "click",
      "select",
      "addSelection",
      "click",
      "addSelection",
      "click",
      "click",
      "editContent",
      "click",
      "click",
      "selectFrame",
      "click",
      "type",
    ]);
    expect(commands[4].value).toBe("label=Two");
    expect([commands[5].value, commands[7].value]).toEqual(["label=Green", "label=Blue"]);
    expect(commands[10].value).toBe("Edit me now");
    expect(commands[12].target).toBe("css=#host >>> #shadowed"); // the button inside the shadow root, not its host
    // The frame by its element's id, with its index as the fallback (CONTRACT section 19).
    expect(commands[13].target).toBe("id=frame");
    expect(commands[13].targets).toEqual([["id=frame", "id"], ["index=0"]]);
    expect(commands[15].value).toBe("deep");

    // Every locator of every targets list finds the element the user acted on first (v3's rule:
    // the first button's id=same is right, the second's never is).
    const elementOf: Array<[number, string, boolean]> = [
      [2, "div:nth-of-type(2) > button", false],
      [3, "button", false],
      [4, "#pick", false],
      [5, "#many", false],
      [6, "#many option:nth-of-type(2)", false],
      [7, "#many", false],
      [8, "#many option:nth-of-type(3)", false],
      [9, "#editor", false],
      [10, "#editor", false],
      [11, "#plain", false],
      [12, "#host >>> #shadowed", false],
      [14, "#deep", true],
      [15, "#deep", true],
    ];
    for (const [index, element, inFrame] of elementOf) {
      const { targets, target } = commands[index];
      expect(targets.length, `targets of command ${index}`).toBeGreaterThan(0);
      expect(targets[0][0]).toBe(target);
      for (const [locator, count, right] of await resolveEach(ide.tab, targets, element, inFrame)) {
        expect([locator, count > 0, right], `command ${index}: ${locator}`).toEqual([locator, true, true]);
      }
    }
    expect(commands[2].targets.map((t) => t[0])).not.toContain("id=same");
    // Quotes in the text are kept in a locator that still finds the button.
    expect(commands[3].targets.some(([locator]) => locator.includes('"quoted"'))).toBe(true);

    // Played back from a fresh page: every command passes, and the page ends as the user left it.
    await ide.tab.goto(`${ide.site.origin}/second`);
    await inTheTab();
    await playToTheEnd(ide.window, 30_000);
    const states = await ide.window.locator('[data-testid="command-state"]').allTextContents();
    expect(states.map((s) => s.trim())).toEqual(commands.map(() => expect.stringContaining("passed")));
    expect(await ide.window.locator('[data-testid="run-result"]').textContent()).toContain("passed");
    expect(await ide.tab.locator("#pick").inputValue()).toBe("Two");
    expect(await ide.tab.locator("#editor").textContent()).toBe("Edit me now");
    expect(await ide.tab.frameLocator("#frame").locator("#deep").inputValue()).toBe("deep");
  });
});
