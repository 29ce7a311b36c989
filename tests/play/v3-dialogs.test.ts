// Selenium IDE v3's dialog commands in `npm run play` (docs/play.md, "Projects written for
// side-runner"), as v3 recorded them: `chooseOkOnNextConfirmation` before the click that opens a
// confirmation, `assertConfirmation` on it while it is open, `webdriverChooseOkOnVisibleConfirmation`
// to answer it; the prompt's the same way. A real process, real Chromium, pages served here; the
// one player over DevTools and `--executor webdriver` both.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servePages } from "../support/browserPages.ts";
import { playCli } from "../support/playCli.ts";

const CONFIRM = `<!doctype html><title>Confirm</title><button id="b" onclick="document.title = confirm('Sure?') ? 'ok' : 'cancel'">Ask</button>`;
const PROMPT = `<!doctype html><title>Prompt</title><button id="b" onclick="const a = prompt('Name?'); document.title = a === null ? 'cancel' : a === '' ? 'empty' : a">Ask</button>`;

let site: Awaited<ReturnType<typeof servePages>>;
let dir: string;

beforeAll(async () => {
  site = await servePages({ "/confirm": CONFIRM, "/prompt": PROMPT });
  dir = mkdtempSync(join(tmpdir(), "ide-core-v3-dialogs-"));
});
afterAll(() => site?.close());

let n = 0;
const command = (name: string, target = "", value = "") => ({ id: `c${++n}`, comment: "", command: name, target, targets: [], value });

const TESTS = [
  {
    id: "t-confirm",
    name: "confirms",
    commands: [
      command("open", "/confirm"),
      command("chooseOkOnNextConfirmation"),
      command("click", "id=b"),
      command("assertConfirmation", "Sure?"),
      command("webdriverChooseOkOnVisibleConfirmation"),
      command("assertTitle", "ok"),
      command("chooseCancelOnNextConfirmation"),
      command("click", "id=b"),
      command("assertConfirmation", "Sure?"),
      command("webdriverChooseCancelOnVisibleConfirmation"),
      command("assertTitle", "cancel"),
    ],
  },
  {
    id: "t-prompt",
    name: "answers",
    commands: [
      command("open", "/prompt"),
      command("answerOnNextPrompt", "Ada"),
      command("click", "id=b"),
      command("assertPrompt", "Name?"),
      command("webdriverAnswerOnVisiblePrompt", "Ada"),
      command("assertTitle", "Ada"),
      command("chooseCancelOnNextPrompt"),
      command("click", "id=b"),
      command("webdriverChooseCancelOnVisiblePrompt"),
      command("assertTitle", "cancel"),
    ],
  },
  {
    id: "t-wrong",
    name: "reads the wrong text",
    commands: [command("open", "/confirm"), command("chooseOkOnNextConfirmation"), command("click", "id=b"), command("assertConfirmation", "Really?")],
  },
];

function project(file: string): string {
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify({ id: "p-dialogs", name: "v3 dialogs", url: site.origin, version: "2.0", tests: TESTS, suites: [], urls: [], plugins: [] }));
  return path;
}

describe("Selenium IDE v3's dialog commands in npm run play", () => {
  it.each([
    ["the player over DevTools", []],
    ["--executor webdriver", ["--executor", "webdriver"]],
  ])("answer a confirmation and a prompt as v3 recorded them, and fail a confirmation whose text differs (%s)", async (_, more) => {
    const played = await playCli([project(`dialogs-${more.length}.side`), ...more], dir);
    expect(played.code, played.stdout + played.stderr).toBe(1);
    expect(played.stdout).toMatch(/^passed\s+confirms\s/m);
    expect(played.stdout).toMatch(/^passed\s+answers\s/m);
    expect(played.stdout).toMatch(/^failed\s+reads the wrong text\s/m);
    expect(played.stdout).toMatch(/failed at assertConfirmation "Really\?": Actual confirm text 'Sure\?' did not match 'Really\?'/);
    expect(played.stdout).toMatch(/3 tests: 2 passed, 1 failed, 0 fatal/);
  }, 120_000);
});
