// The page panel live on a Grid's browser: the host plays through a local Selenium Grid (as
// `npm start -- --webdriver-url GRID`), and reaches the browser's DevTools through the Grid's
// `se:cdp` endpoint. An IDE page's socket gets the screencast's frames while the page animates,
// and none while it is still; no still picture is taken.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { framesAnimatingThenQuiet, uiSocket } from "../support/liveFrames.ts";
import type { UiSocket } from "../support/liveFrames.ts";
import { gridHost } from "./support.ts";
import type { GridHost } from "./support.ts";

const PROJECT = { id: "p-live-grid", name: "Live on the Grid", url: "http://127.0.0.1:1", tests: [], suites: [] };

let fixture: GridHost;
let ui: UiSocket | null = null;

beforeAll(async () => {
  fixture = await gridHost(PROJECT, 1);
}, 120_000);

afterAll(async () => {
  await ui?.close();
  await fixture?.close();
}, 60_000);

describe("the page panel live on a Grid's browser", () => {
  it("streams the Grid browser's page to the IDE page's socket through se:cdp while it animates, and nothing while it is still", async () => {
    const { driver } = await fixture.pool.sideRuntime();
    const capabilities = await driver.getCapabilities();
    expect(capabilities.get("se:cdp")).toMatch(/^wss?:\/\//);
    await driver.get(`${fixture.site.url}/shop`);

    ui = await uiSocket(fixture.host);
    const { animating, quiet } = await framesAnimatingThenQuiet(driver, ui, 60_000);
    expect(animating).toBeGreaterThan(5);
    expect(quiet).toBe(0);
    // Every picture was a live frame of the page, none a still capture.
    expect(ui.pages.length).toBeGreaterThan(0);
    expect(ui.pages.every((page) => page.live === true)).toBe(true);
    expect(ui.pages.at(-1)).toMatchObject({ url: `${fixture.site.url}/shop`, title: "Fixture shop", image: expect.stringMatching(/^data:image\/jpeg;base64,/) });
  }, 120_000);
});
