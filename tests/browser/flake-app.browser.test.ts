// The flake bench's recorded tests fit its slow app (bench/flake/): with every delay gone (the
// app as a person saw it while recording), each test, walked by Playwright's own waiting
// actions (neither of the players the bench compares), passes every command: each element it
// names is there, each value it asserts is the one the page shows. So a failure in
// `npm run bench -- --only flake` is the player's, not a test that no longer fits its page.
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../drivers/host/chromium.ts";
import { FLAKE_SIDE, startSlowApp } from "../../bench/flake/app.ts";
import type { SlowApp } from "../../bench/flake/app.ts";
import type { SideCommand, SideProject } from "../../bench/flake/players.ts";

const project = JSON.parse(readFileSync(FLAKE_SIDE, "utf8")) as SideProject;
const LIMIT_MS = 5_000;
let app: SlowApp;
let browser: Browser;

beforeAll(async () => {
  app = await startSlowApp({ settled: true });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** A Selenium locator as Playwright's selector (the kinds the recorded tests use). */
function selectorOf(target: string): string {
  const [kind, rest] = [target.slice(0, target.indexOf("=")), target.slice(target.indexOf("=") + 1)];
  if (kind === "id") return `[id="${rest}"]`;
  if (kind === "css") return `css=${rest}`;
  if (kind === "xpath") return `xpath=${rest}`;
  if (kind === "linkText") return `xpath=//a[normalize-space(.)="${rest}"]`;
  throw new Error(`no selector for ${target}`);
}

/** Plays one command as Playwright would; rejects with what went wrong. */
async function walk(page: Page, command: SideCommand, vars: Map<string, string>): Promise<void> {
  const value = command.value.replace(/\$\{(\w+)\}/g, (_, name: string) => vars.get(name) ?? "");
  if (command.command === "open") {
    await page.goto(`${app.origin}${command.target}`, { timeout: LIMIT_MS });
    return;
  }
  const element = page.locator(selectorOf(command.target));
  const text = async () => ((await element.innerText({ timeout: LIMIT_MS })) ?? "").trim();
  switch (command.command) {
    case "click":
      return element.click({ timeout: LIMIT_MS });
    case "type":
      return element.fill(value, { timeout: LIMIT_MS });
    case "select":
      await element.selectOption({ label: value.replace(/^label=/, "") }, { timeout: LIMIT_MS });
      return;
    case "storeText":
      vars.set(command.value, await text());
      return;
    case "assertText":
    case "verifyText":
      await expect.poll(text, { timeout: LIMIT_MS }).toBe(value);
      return;
    default:
      throw new Error(`the walker cannot play ${command.command}`);
  }
}

describe("the flake bench's tests on the settled slow app", () => {
  it("each pass every command when Playwright walks them", { timeout: 300_000 }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const failed: string[] = [];
    try {
      for (const test of project.tests) {
        const vars = new Map<string, string>();
        for (const command of test.commands) {
          const error = await walk(page, command, vars).then(() => null, (e: unknown) => (e instanceof Error ? e.message : String(e)));
          if (error !== null) {
            failed.push(`${test.id} ${test.name}: ${command.command} ${command.target}: ${error.split("\n")[0]}`);
            break;
          }
        }
      }
    } finally {
      await context.close();
    }
    expect(failed).toEqual([]);
  });
});
