// The player's actionability waits (issue 27, drivers/player/actionable.ts) in the
// host, in headless Chromium: an element that never becomes clickable fails the command saying
// which wait did not end (disabled, covered, moving); and the waits are what makes the late
// cases pass, since side-runtime's WebDriver executor, or the player with its waits off, clicks
// a button the page enables late too early and the click is lost. (The late cases passing in
// the player, in the host, a Grid and the extension: the torture tests, with
// tests/support/actionabilityPages.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPage } from "../../drivers/host/browserPage.ts";
import type { BrowserPage } from "../../drivers/host/browserPage.ts";
import { servePages } from "../support/browserPages.ts";
import { ACTIONABILITY_PAGES } from "../support/actionabilityPages.ts";

let site: Awaited<ReturnType<typeof servePages>>;
const pages: BrowserPage[] = [];
let count = 0;

beforeAll(async () => {
  site = await servePages(ACTIONABILITY_PAGES);
});

afterAll(async () => {
  for (const page of pages) await page.close();
  await site?.close();
});

/** A host page with these options (its browser started at the first command); each command played gives its state and message. */
function host(options: Parameters<typeof browserPage>[0] = {}) {
  let page: BrowserPage | undefined;
  return async (command: string, target = "", value = "") => {
    if (!page) pages.push((page = browserPage({ baseUrl: site.origin, implicitWaitMs: 500, ...options })));
    const outcome = await page.execute(
      { command: { id: `a${++count}`, command, target, value }, variables: {}, baseUrl: site.origin, runId: "actionability" },
      new AbortController().signal,
    );
    return outcome.message ? `${outcome.state}: ${outcome.message}` : outcome.state;
  };
}

describe("the player waits until an element can take the action, and says which wait did not end", () => {
  const play = host({});

  it("fails a click on a button that stays disabled, saying it is disabled", async () => {
    expect(await play("open", "/a/never")).toBe("passed");
    expect(await play("click", "id=off")).toBe("failed: Element id=off is not interactable (it is disabled)");
  });

  it("fails a click on a button that stays covered, naming what would get the click", async () => {
    expect(await play("open", "/a/never")).toBe("passed");
    expect(await play("click", "id=under")).toMatch(/^failed: Element id=under is not clickable at point \(\d+, \d+\)\. Other element would receive the click: <div id="cover"/);
  });

  it("fails a click on a button that never stops moving, saying it is still moving", async () => {
    expect(await play("open", "/a/never")).toBe("passed");
    expect(await play("click", "id=roam")).toBe("failed: Element id=roam is still moving (its box changed between two animation frames), so it cannot be interacted with yet");
  });

  it("clicks a button the page enables late, so the page sees the click", async () => {
    const patient = host({ implicitWaitMs: 10_000 });
    expect(await patient("open", "/a/enable-later")).toBe("passed");
    expect(await patient("click", "id=save")).toBe("passed");
    expect(await patient("assertText", "id=out", "saved")).toBe("passed");
  });
});

describe("without the waits, a click on a button the page enables late is lost", () => {
  it("side-runtime's WebDriver executor clicks it while disabled: the command passes and the page saw nothing", async () => {
    const play = host({ player: "webdriver" });
    expect(await play("open", "/a/enable-later")).toBe("passed");
    expect(await play("click", "id=save")).toBe("passed");
    expect(await play("assertText", "id=out", "saved")).toBe("failed: Actual value '' did not match 'saved'");
  });

  it("the player with its actionability waits off clicks it while disabled too", async () => {
    const play = host({ actionWaits: false });
    expect(await play("open", "/a/enable-later")).toBe("passed");
    expect(await play("click", "id=save")).toBe("passed");
    expect(await play("assertText", "id=out", "saved")).toBe("failed: Actual value '' did not match 'saved'");
  });
});
