// The project's recording settings reach the recorder in the page (CONTRACT section 18): the
// host's page panel (drivers/host/recording.ts) tells the recorder the IDE's locatorOrder and
// testIdAttributes over DevTools, and a recording in real headless Chromium, driven by
// WebDriver, on a page with test ids, labels and aria-labels records those locators in the
// project's order; changing the order in the IDE changes the next recorded target.
import { By } from "selenium-webdriver";
import type { WebDriver } from "selenium-webdriver";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createIde } from "../../index.ts";
import type { Ide } from "../../index.ts";
import { pagePanelRecorder } from "../../drivers/host/recording.ts";
import { browserPage } from "../../drivers/host/browserPage.ts";
import type { BrowserPage } from "../../drivers/host/browserPage.ts";
import { servePages } from "../support/browserPages.ts";

const FORM = `<!doctype html>
<html><head><title>Sign up</title></head>
<body>
  <form>
    <p><label for="email">Email</label> <input id="email" name="email" data-testid="email-input"></p>
    <p><label>Password <input type="password" name="pw"></label></p>
    <p><button type="button" aria-label="Close the form" class="icon">×</button></p>
    <p><button type="button" data-qa="save-button" class="primary">Save
       changes</button></p>
    <p><a href="#contact">Help &amp;
       Contact</a></p>
  </form>
</body></html>`;

const WAIT = { timeout: 30_000, interval: 50 };

let site: Awaited<ReturnType<typeof servePages>>;
let page: BrowserPage;
let driver: WebDriver;
let ide: Ide;
let panel: ReturnType<typeof pagePanelRecorder>;

beforeAll(async () => {
  site = await servePages({ "/form": FORM });
  page = browserPage({ baseUrl: site.origin });
  ({ driver } = await page.sideRuntime());
  await driver.get(`${site.origin}/form`);
  ide = createIde({ project: { id: "p", name: "settings", url: site.origin, tests: [{ id: "t", name: "signing up", commands: [] }] } });
  panel = pagePanelRecorder(
    async () => driver,
    (report) => void ide.record(report),
    () => ({ project: site.origin }),
    {},
    () => ide.getSnapshot().recordingSettings,
  );
  ide.send({ type: "user.startRecording" });
  await panel.recordingStarted();
}, 60_000);

afterAll(async () => {
  ide?.stop();
  await page?.close();
  await site?.close();
});

type Recorded = { command: string; target: string; targets?: Array<[string, string?]> };
const commands = () => ide.getProject().tests[0].commands as Recorded[];

/** Clicks the element's centre on the page as the page panel does, and waits for its command. */
async function clickOn(css: string): Promise<Recorded> {
  const rect = await driver.findElement(By.css(css)).getRect();
  const before = commands().filter((c) => c.command === "click").length;
  await panel.input({ kind: "click", x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 });
  await vi.waitFor(() => expect(commands().filter((c) => c.command === "click").length).toBe(before + 1), WAIT);
  return commands().filter((c) => c.command === "click").at(-1)!;
}

/** The builder names of a command's targets, and whether they follow the project's order. */
function inProjectOrder(command: Recorded): boolean {
  const order = ide.getSnapshot().recordingSettings.locatorOrder as string[];
  const at = (command.targets ?? []).map(([, name]) => order.indexOf(name!));
  return at.every((index, i) => index >= 0 && (i === 0 || index > at[i - 1]));
}

describe("recording with the project's recording settings", () => {
  it("records test ids, labels, aria-labels and texts first, in the project's default order", async () => {
    const email = await clickOn("#email");
    expect(email.target).toBe('css=[data-testid="email-input"]');
    expect(email.targets!.slice(0, 4)).toEqual([
      ['css=[data-testid="email-input"]', "css:testId"],
      ["id=email", "id"],
      ["xpath=//input[@id=//label[normalize-space()='Email']/@for]", "xpath:label"],
      ["name=email", "name"],
    ]);
    expect(inProjectOrder(email)).toBe(true);

    const password = await clickOn("input[type=password]");
    expect(password.target).toBe("xpath=//label[normalize-space()='Password']//input");
    expect(inProjectOrder(password)).toBe(true);

    const close = await clickOn("button.icon");
    expect(close.target).toBe('css=[aria-label="Close the form"]');

    const save = await clickOn("button.primary");
    expect(save.target).toBe('css=[data-qa="save-button"]');
    expect(save.targets).toContainEqual(["xpath=//button[normalize-space()='Save changes']", "xpath:text"]);

    const link = await clickOn("a");
    expect(link.target).toBe("linkText=Help & Contact");
    for (const command of [email, password, close, save, link]) {
      for (const [locator] of command.targets!) expect(locator, command.target).not.toMatch(/[^\S ]| {2}|127\.0\.0\.1/);
    }
  }, 90_000);

  it("records the target the changed order puts first", async () => {
    ide.send({ type: "user.changeSettings", locatorOrder: ["name", "xpath:label", "xpath:text"], testIdAttributes: ["data-testid"] });
    const email = await clickOn("#email");
    expect(email.target).toBe("name=email");
    expect(email.targets!.slice(0, 3).map(([, name]) => name)).toEqual(["name", "xpath:label", "css:testId"]);
    expect(inProjectOrder(email)).toBe(true);

    // data-qa is no longer a test-id attribute of the project: the button's own text comes first.
    const save = await clickOn("button.primary");
    expect(save.target).toBe("xpath=//button[normalize-space()='Save changes']");
    expect(save.targets!.map(([, name]) => name)).not.toContain("css:testId");
  }, 90_000);
});
