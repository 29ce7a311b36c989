// The recorded wait for what a request brought (docs/recording.md, "Waits the user made"), end to
// end in the host: the recorder in its isolated world of the page WebDriver drives (over
// DevTools, trusted input) records `waitForElementVisible id=result 30000` before the click on a
// button that a slow request added, and the recorded test plays back green through the host's
// player although the request takes longer than the player's implicit wait.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { By, until } from "selenium-webdriver";
import type { WebDriver } from "selenium-webdriver";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createIde } from "../../index.ts";
import type { Ide } from "../../index.ts";
import { recordInPage } from "../../drivers/host/recording.ts";
import type { HostRecorder } from "../../drivers/host/recording.ts";
import { browserPage } from "../../drivers/host/browserPage.ts";
import type { BrowserPage } from "../../drivers/host/browserPage.ts";
import { playAndWait } from "../support/runs.ts";

const IMPLICIT_WAIT_MS = 300;
const DATA_DELAY_MS = 1_500; // longer than the implicit wait: only the recorded wait lets the click find it
const WAIT = { timeout: 20_000, interval: 50 };

const APP = `<!doctype html><html><body><main><button id="load" type="button">Load</button><div id="results"></div></main>
<script>
  document.getElementById("load").onclick = () => fetch("/data").then((r) => r.text()).then((text) => {
    const b = document.createElement("button"); b.type = "button"; b.id = "result"; b.textContent = text;
    b.onclick = () => (b.textContent = "Clicked");
    document.getElementById("results").append(b);
  });
</script></body></html>`;

let server: ReturnType<typeof createServer>;
let origin: string;
let page: BrowserPage;
let driver: WebDriver;
let recorder: HostRecorder;
let ide: Ide;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (path === "/app") return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(APP);
    if (path === "/data") return void setTimeout(() => res.writeHead(200, { "content-type": "text/plain" }).end("Fresh data"), DATA_DELAY_MS);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  page = browserPage({ baseUrl: origin, implicitWaitMs: IMPLICIT_WAIT_MS });
  ({ driver } = await page.sideRuntime());
  ide = createIde({ project: { id: "p", name: "waits", version: "2.0", url: origin, tests: [{ id: "t", name: "loads", commands: [] }] }, executor: page });
  recorder = await recordInPage(driver, (report) => ide.record(report));
  await driver.get(`${origin}/app`);
}, 60_000);

afterAll(async () => {
  recorder?.close();
  ide?.stop();
  await page?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

async function clickOn(id: string) {
  const element = await driver.wait(until.elementLocated(By.id(id)), 10_000);
  const rect = await element.getRect();
  await recorder.click(rect.x + rect.width / 2, rect.y + rect.height / 2);
}

const recorded = () => ide.getProject().tests[0].commands.map((c) => [c.command, c.target, c.value]);

describe("a wait recorded in the host for what a slow request brought", () => {
  it("is recorded before the click on it, and lets the test play back green past the implicit wait", async () => {
    ide.send({ type: "user.startRecording" });
    await vi.waitFor(() => expect(ide.getSnapshot().recording).not.toBeNull(), WAIT);
    await clickOn("load");
    await vi.waitFor(() => expect(recorded()).toContainEqual(["click", "id=load", ""]), WAIT);
    await clickOn("result");
    await vi.waitFor(() => expect(recorded()).toContainEqual(["click", "id=result", ""]), WAIT);
    ide.send({ type: "user.stopRecording" });
    const commands = recorded().filter(([command]) => command !== "open" && command !== "setWindowSize");
    expect(commands).toEqual([
      ["click", "id=load", ""],
      ["waitForElementVisible", "id=result", "30000"],
      ["click", "id=result", ""],
    ]);

    // Played from a fresh page: open first (the recording began on a page already open), and the click's effect checked last.
    ide.send({ type: "user.addCommand", command: "open", target: "/app", index: 0 });
    ide.send({ type: "user.addCommand", command: "assertText", target: "id=result", value: "Clicked", index: ide.getProject().tests[0].commands.length });
    const run = await playAndWait(ide, { type: "user.startPlayback", testId: "t" });
    expect(run.commands.map((c) => c.state)).toEqual(ide.getProject().tests[0].commands.map(() => "passed"));
    expect(run.result).toBe("passed");
  }, 90_000);
});
