// A real Selenium Grid 4 (drivers/grid/grid.ts): the jar from npm on Java 17, a hub and a node
// on 127.0.0.1 whose node drives Debian's Chromium through chromedriver. The host plays the
// example project through it as `npm start -- --webdriver-url` does. Never skipped: CI
// installs Java, Chromium and chromedriver first (.ci/run).
import { readFileSync } from "node:fs";
import { Builder } from "selenium-webdriver";
import type { WebDriver } from "selenium-webdriver";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Host } from "../../apps/host/host.ts";
import { GridError, openSessions, startGrid } from "../../drivers/grid/grid.ts";
import type { Grid } from "../../drivers/grid/grid.ts";
import { gridConfigs } from "../../drivers/grid/config.ts";
import { defaultCapabilities, parseCapabilities, sessionCapabilities } from "../../drivers/host/capabilities.ts";
import type { ExampleSite } from "../../drivers/host/site.ts";
import type { SessionPool } from "../../drivers/host/sessions.ts";
import { playAndWait as play } from "../support/runs.ts";
import { gridHost } from "./support.ts";
import type { GridHost } from "./support.ts";

const SHOP = JSON.parse(readFileSync(new URL("../../examples/shop.side", import.meta.url), "utf8")) as unknown;
const WAIT = { timeout: 60_000, interval: 100 };

let fixture: GridHost;
let grid: Grid;
let site: ExampleSite;
let page: SessionPool;
let host: Host;

beforeAll(async () => {
  fixture = await gridHost(SHOP, 1);
  ({ grid, site, pool: page, host } = fixture);
}, 120_000);

afterAll(() => fixture?.close(), 60_000);

const playAndWait = (testId: string) => play(host.ide, { type: "user.startPlayback", testId }, WAIT.timeout);

describe("a Selenium Grid started here", () => {
  it("runs as a hub and a node on 127.0.0.1, the node offering Chromium", async () => {
    const status = await grid.status();
    expect(status.ready).toBe(true);
    expect(grid.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(grid.pids).toHaveLength(2);
    expect(status.nodes).toHaveLength(1);
    const node = status.nodes![0];
    expect(node.uri).toBe(`http://127.0.0.1:${grid.ports.node}`);
    expect(node.slots).toHaveLength(2);
    expect(node.slots[0].stereotype).toMatchObject({ browserName: "chrome", "goog:chromeOptions": { binary: "/usr/bin/chromium" } });
  });

  it("plays the example project's cart test through the Grid, and it passes", async () => {
    const playback = await playAndWait("t-cart");
    expect(playback.result).toBe("passed");
    expect(playback.commands.map((c) => [c.command, c.state])).toEqual([
      ["open", "passed"],
      ["click", "passed"],
      ["assertText", "passed"],
    ]);
    // The session is the Grid's: it shows in the node's slots while the browser is kept.
    expect(openSessions(await grid.status())).toBe(1);
  }, 90_000);

  it("holds two sessions at the same time, both seen in the Grid's status", async () => {
    const drivers: WebDriver[] = [];
    try {
      // The host's session from the test before takes one slot; quit it so both are ours.
      await page.close();
      await vi.waitFor(async () => expect(openSessions(await grid.status())).toBe(0), WAIT);
      const caps = sessionCapabilities(defaultCapabilities(), undefined);
      drivers.push(...(await Promise.all([1, 2].map(() => new Builder().usingServer(grid.url).withCapabilities(caps).build()))));
      expect(openSessions(await grid.status())).toBe(2);
      await Promise.all(drivers.map((d) => d.get(`${site.url}/shop`)));
      expect(await Promise.all(drivers.map((d) => d.getTitle()))).toEqual(["Fixture shop", "Fixture shop"]);
    } finally {
      await Promise.all(drivers.map((d) => d.quit().catch(() => {})));
    }
    await vi.waitFor(async () => expect(openSessions(await grid.status())).toBe(0), WAIT);
  }, 90_000);

  it("replaces a session the Grid deleted between runs before the next run sends it anything, and that run passes", async () => {
    expect((await playAndWait("t-cart")).result).toBe("passed");
    // The session dies while no run uses it: the Grid deletes it, as when it times out idle or its node goes.
    const { driver } = await page.sideRuntime();
    const sessionId = (await driver.getSession()).getId();
    const deleted = await fetch(`${grid.url}/session/${sessionId}`, { method: "DELETE" });
    expect(deleted.ok).toBe(true);

    const next = await playAndWait("t-cart");
    expect(next.commands.map((c) => c.state)).toEqual(next.commands.map(() => "passed"));
    expect(next.result).toBe("passed");
    const { driver: replaced } = await page.sideRuntime();
    expect((await replaced.getSession()).getId()).not.toBe(sessionId);
    // (A session that dies while its test plays ends that test fatal: tests/grid/parallel.test.ts.)
  }, 120_000);
});

describe("the Grid's configuration and capabilities", () => {
  it("binds every server and the event bus to 127.0.0.1 and turns Selenium Manager and driver detection off", () => {
    const ports = { hub: 1, node: 2, publish: 3, subscribe: 4 };
    const [hub, node] = gridConfigs({ ports, maxSessions: 3, chromium: "/usr/bin/chromium", chromedriver: "/usr/bin/chromedriver", standalone: false });
    expect(hub.role).toBe("hub");
    expect(hub.toml).toContain('host = "127.0.0.1"\nport = 1');
    expect(hub.toml).toContain('publish = "tcp://127.0.0.1:3"');
    expect(hub.toml).toContain("bind = true");
    expect(node.toml).toContain('hub = "http://127.0.0.1:1"');
    expect(node.toml).toContain("bind = false");
    expect(node.toml).toContain("selenium-manager = false");
    expect(node.toml).toContain("detect-drivers = false");
    expect(node.toml).toContain('webdriver-executable = "/usr/bin/chromedriver"');
    expect(node.toml).toContain("max-sessions = 3");
    const [standalone] = gridConfigs({ ports, maxSessions: 1, chromium: "/c", chromedriver: "/d", standalone: true });
    expect(standalone.role).toBe("standalone");
    expect(standalone.toml).not.toContain("[events]");
  });

  it("says what is missing instead of starting a Grid without Java", async () => {
    await expect(startGrid({ javaPath: "/nowhere/java" })).rejects.toThrow(GridError);
    await expect(startGrid({ javaPath: "/nowhere/java" })).rejects.toThrow("Selenium Grid needs Java, and /nowhere/java does not exist (apt-get install default-jre-headless).");
  });

  it("reads --capabilities as a JSON object and refuses anything else in one line", () => {
    expect(parseCapabilities('{"browserName":"chrome","se:name":"smoke"}')).toEqual({ browserName: "chrome", "se:name": "smoke" });
    expect(() => parseCapabilities("{browserName")).toThrow(/^--capabilities is not JSON/);
    expect(() => parseCapabilities("[1]")).toThrow(/^--capabilities must be a JSON object/);
    expect(() => parseCapabilities('"chrome"')).toThrow(/^--capabilities must be a JSON object/);
    expect(() => parseCapabilities("null")).toThrow(/^--capabilities must be a JSON object/);
  });

  it("defaults to Chromium headless and adds the local binary only where none is named", () => {
    const defaults = sessionCapabilities(undefined, "/usr/bin/chromium");
    expect(defaults).toMatchObject({ browserName: "chrome", "goog:chromeOptions": { binary: "/usr/bin/chromium" } });
    expect((defaults["goog:chromeOptions"] as { args: string[] }).args).toContain("--headless=new");
    expect(sessionCapabilities({ browserName: "chrome", "goog:chromeOptions": { binary: "/opt/c" } }, "/usr/bin/chromium")).toEqual({
      browserName: "chrome",
      "goog:chromeOptions": { binary: "/opt/c" },
    });
    expect(sessionCapabilities({ browserName: "firefox" }, "/usr/bin/chromium")).toEqual({ browserName: "firefox" });
    // A remote end picks its own browser: nothing is added without a local path.
    expect(sessionCapabilities({ browserName: "chrome" }, undefined)).toEqual({ browserName: "chrome" });
  });
});
