// A command row's runs for real (CONTRACT section 20): the host (startHost, as npm start runs it)
// with its browser page under test in headless Chromium. "Execute this command" opens the page
// when none is open and plays one command there, with the variables the last one stored; "Play
// to here" pauses the run before its command with the page as the commands before it left it; a
// disabled command is passed over. Driven with the user's events, as the page's buttons send them.
import { By } from "selenium-webdriver";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startHost } from "../../apps/host/host.ts";
import type { Host } from "../../apps/host/host.ts";
import { browserPage } from "../../drivers/host/browserPage.ts";
import type { BrowserPage } from "../../drivers/host/browserPage.ts";
import { servePages } from "../support/browserPages.ts";
import { playAndWait } from "../support/runs.ts";

const COUNTER = `<!doctype html><html><body><main>
<button id="inc" type="button" onclick="const c = document.getElementById('count'); c.textContent = String(Number(c.textContent) + 1)">Add one</button>
<p id="count">0</p><label>Name <input id="name"></label></main></body></html>`;

const WAIT = { timeout: 45_000, interval: 50 };
const REFUSED = "A run is under way: a command can be executed by itself only once it is over. Nothing was executed.";

const row = (id: string, command: string, target = "", value = "") => ({ id, command, target, targets: [], value });

let site: Awaited<ReturnType<typeof servePages>>;
let page: BrowserPage;
let host: Host;

beforeAll(async () => {
  site = await servePages({ "/counter": COUNTER });
  page = browserPage({ baseUrl: site.origin, implicitWaitMs: 500 });
  const project = {
    id: "p",
    name: "Counter",
    url: site.origin,
    tests: [
      {
        id: "t",
        name: "counts",
        commands: [
          row("c1", "open", "/counter"),
          row("c2", "click", "id=inc"),
          row("c3", "//click", "id=inc"),
          row("c4", "click", "id=inc"),
          row("c5", "assertText", "id=count", "2"),
          row("c6", "storeText", "id=count", "counted"),
          row("c7", "type", "id=name", "seen ${counted}"),
          row("c8", "assertValue", "id=name", "seen ${counted}"),
        ],
      },
    ],
    suites: [{ id: "s", name: "Default Suite", tests: ["t"] }],
  };
  host = await startHost({ port: 0, tokenFile: null, project, executor: page });
}, 60_000);

afterAll(async () => {
  await host?.close();
  await page?.close();
  await site?.close();
});

const countShown = async () => (await (await page.sideRuntime()).driver.findElement(By.id("count"))).getText();
const states = () => host.ide.getSnapshot().playback!.commands.map((c) => [c.id, c.state]);

describe("Execute this command and Play to here, in the host's browser", () => {
  it("opens the page for an executed command when none is open, plays only that command there, and keeps the project as it was", async () => {
    expect(page.hasPage()).toBe(false);
    const before = host.ide.getProject();
    const opened = await playAndWait(host.ide, { type: "user.executeCommand", commandId: "c1" }, WAIT.timeout);
    expect(opened.result).toBe("passed");
    expect(page.hasPage()).toBe(true);
    expect(states()).toEqual([["c1", "passed"], ["c2", null], ["c3", null], ["c4", null], ["c5", null], ["c6", null], ["c7", null], ["c8", null]]);

    const clicked = await playAndWait(host.ide, { type: "user.executeCommand", commandId: "c4" }, WAIT.timeout);
    expect(clicked.result).toBe("passed");
    expect(await countShown()).toBe("1");
    expect(states().filter(([, state]) => state !== null)).toEqual([["c4", "passed"]]);
    expect(host.ide.getProject()).toEqual(before);
    expect(host.ide.getSnapshot().project.unsaved).toBe(false);
  });

  it("gives an executed command the variables the one before stored, and shows a failed one failed", async () => {
    await playAndWait(host.ide, { type: "user.executeCommand", commandId: "c6" }, WAIT.timeout);
    expect(host.ide.getSnapshot().playback!.variables).toMatchObject({ counted: expect.any(String) });
    const counted = host.ide.getSnapshot().playback!.variables.counted as string;
    expect((await playAndWait(host.ide, { type: "user.executeCommand", commandId: "c7" }, WAIT.timeout)).result).toBe("passed");
    expect((await playAndWait(host.ide, { type: "user.executeCommand", commandId: "c8" }, WAIT.timeout)).result).toBe("passed");
    expect(await (await (await page.sideRuntime()).driver.findElement(By.id("name"))).getAttribute("value")).toBe(`seen ${counted}`);

    // The count is not 2 now (one click so far, on a page the first test opened): the assertion fails, on its row.
    const failed = await playAndWait(host.ide, { type: "user.executeCommand", commandId: "c5" }, WAIT.timeout);
    expect(failed.result).toBe("failed");
    expect(failed.commands[4]).toMatchObject({ id: "c5", state: "failed", message: expect.stringContaining("2") });
  });

  it("pauses the run before Play to here's command with the page as the commands before left it, passing over the disabled one, then plays on", async () => {
    host.ide.send({ type: "user.startPlayback", untilCommandId: "c4" });
    await vi.waitFor(() => expect(host.ide.getSnapshot().playback).toMatchObject({ status: "paused", currentCommandId: "c4" }), WAIT);
    // open, then one click: the disabled click (c3) did nothing.
    expect(await countShown()).toBe("1");
    expect(states().slice(0, 4)).toEqual([["c1", "passed"], ["c2", "passed"], ["c3", null], ["c4", null]]);

    // Executing a command while the run is paused is refused, and the page is untouched.
    host.ide.send({ type: "user.executeCommand", commandId: "c2" });
    await vi.waitFor(() => expect(host.ide.getSnapshot().logs.filter((l) => l.level === "warn").map((l) => l.message)).toContain(REFUSED), WAIT);
    expect(await countShown()).toBe("1");

    host.ide.send({ type: "user.resumePlayback" });
    await vi.waitFor(() => expect(host.ide.getSnapshot().playback).toMatchObject({ status: "ended", result: "passed" }), WAIT);
    expect(states()).toEqual([["c1", "passed"], ["c2", "passed"], ["c3", null], ["c4", "passed"], ["c5", "passed"], ["c6", "passed"], ["c7", "passed"], ["c8", "passed"]]);
    expect(await countShown()).toBe("2");
  });
});
