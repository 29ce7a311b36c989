// The torture page in the browser extension, end to end (CONTRACT section 19, issue 26): the
// built extension in headless Chromium, the torture cases of tests/support/torturePage.ts as
// the tests of one .side project the user loads in the IDE window, each played in the tab
// under test with the in-page player: every command passes. The upload case names its file
// relative to the .side file, which the extension has no folder for: here it names the file's
// absolute path, and the extension uploads it through the input's file chooser.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadProjectFile, useIdeExtension } from "../support/ideExtension.ts";
import { TORTURE_CASES, TORTURE_PAGES, UPLOAD_FILE } from "../support/torturePage.ts";
import type { TortureCase } from "../support/torturePage.ts";
import { tortureProject } from "../support/torturePlay.ts";
import { ACTIONABILITY_CASES, ACTIONABILITY_PAGES } from "../support/actionabilityPages.ts";

const uploaded = join(mkdtempSync(join(tmpdir(), "ide-core-torture-")), UPLOAD_FILE.name);

/** The case with its upload's relative name made the absolute path of the file written for it. */
const withAbsoluteUpload = (tcase: TortureCase): TortureCase =>
  tcase.uploadsRelative ? { ...tcase, commands: tcase.commands.map((c) => (c.command === "type" && c.value === UPLOAD_FILE.name ? { ...c, value: uploaded } : c)) } : tcase;

const CASES = [...TORTURE_CASES, ...ACTIONABILITY_CASES].map(withAbsoluteUpload);

// One browser for the file: each case is its own test of one project, played in turn.
const ide = useIdeExtension({ plugins: ["opener"], pages: { ...TORTURE_PAGES, ...ACTIONABILITY_PAGES }, once: true });

beforeAll(async () => {
  writeFileSync(uploaded, UPLOAD_FILE.content);
  const project = tortureProject(ide.site.origin, CASES);
  await loadProjectFile(ide.window, project);
}, 120_000);

/** The run the window shows: its test's name and its status. */
const shownRun = async () => ({
  name: await ide.window.locator('[data-testid="run-status"] strong').textContent().catch(() => null),
  status: await ide.window.locator('[data-testid="run-status"]').getAttribute("data-status").catch(() => null),
});

/** Plays case `index` (test t<index>) from the IDE window and gives each command's state, and message if any, as shown. */
async function play(index: number): Promise<string[]> {
  await ide.window.locator(`[data-testid="test-item"][data-test-id="t${index}"] button`).click();
  await ide.tab.bringToFront();
  await ide.window.getByRole("button", { name: "Play", exact: true }).click();
  // Each case is played once, and its name is its own: the run shown with it is this one.
  await expect.poll(shownRun, { timeout: 30_000 }).toEqual({ name: CASES[index].name, status: "ended" });
  const rows = ide.window.locator('[data-testid="command-row"]');
  const played: string[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    const state = ((await row.locator('[data-testid="command-state"]').textContent()) ?? "").trim();
    const message = (await row.locator('[data-testid="command-message"]').count()) ? await row.locator('[data-testid="command-message"]').textContent() : null;
    played.push(message ? `${state}: ${message}` : state);
  }
  return played;
}

describe("the torture page in the browser extension", () => {
  CASES.forEach((tcase, index) => {
    it(`${tcase.name}: every command passes in the tab`, async () => {
      expect(await play(index)).toEqual(tcase.commands.map(() => "passed"));
    });
  });
});
