// `npm start` as a user runs it: a real process, its printed addresses, its token file,
// its exit codes, and a clean stop on Ctrl-C (SIGINT).
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocket } from "ws";
import { shopProject } from "../support/shared.ts";
import { startExampleSite } from "../../drivers/host/site.ts";
import { killLeftovers, ROOT, runScript, waitForOutput } from "../support/processes.ts";
import type { Run } from "../support/processes.ts";

/** npm start as a real process. */
const start = (args: string[], env: Record<string, string> = {}): Run => runScript("bin/start.ts", args, env);

const scratch = () => mkdtempSync(join(tmpdir(), "ide-core-cli-"));

afterEach(killLeftovers);

describe("npm start", () => {
  it("serves the IDE page and the plugin bridge at the addresses it prints, and stops cleanly on Ctrl-C", async () => {
    const dir = scratch();
    const tokenFile = join(dir, "token");
    const run = start(["--port", "0", "--token-file", tokenFile]);
    const [, pageUrl] = await waitForOutput(run, /IDE page\s+(\S+)/);
    const [, token] = await waitForOutput(run, /token\s+(\S+)/);
    expect(run.output()).toContain('project        "Shop checkout"');

    expect(readFileSync(tokenFile, "utf8").trim()).toBe(token);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);

    const page = await fetch(pageUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(token);

    const bridge = new URL(pageUrl);
    const socket = new WebSocket(`ws://${bridge.host}/plugins?id=cli-test&token=${token}`);
    const reply = await new Promise<unknown>((resolve, reject) => {
      socket.once("error", reject);
      socket.once("open", () => socket.send(JSON.stringify({ type: "request", id: 1, message: { uri: "/project", verb: "get" } })));
      socket.once("message", (data) => resolve(JSON.parse(data.toString())));
    });
    expect(reply).toEqual({ type: "reply", id: 1, reply: { id: shopProject().id, name: "Shop checkout" } });

    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain("Stopped.");
  });

  it("loads the project given with --project", async () => {
    const dir = scratch();
    const file = join(dir, "mine.side");
    writeFileSync(file, JSON.stringify({ ...shopProject(), id: "mine", name: "My project" }));
    const run = start(["--port", "0", "--token-file", join(dir, "token"), "--project", file]);
    await waitForOutput(run, /project\s+"My project"/);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
  });

  const badProjects: Array<[string, string | null, RegExp]> = [
    ["a file that does not exist", null, /cannot read the project file .*missing\.side: there is no such file/],
    ["a file that is not JSON", "{ this is not json", /the project file .*bad\.side is not JSON/],
    ["a project without tests", JSON.stringify({ id: "x", name: "No tests" }), /bad\.side is not a usable \.side project: .*tests/],
  ];

  it.each(badProjects)("exits with code 1 and names the problem for %s", async (_name, content, message) => {
    const dir = scratch();
    const file = join(dir, content === null ? "missing.side" : "bad.side");
    if (content !== null) writeFileSync(file, content);
    const run = start(["--port", "0", "--token-file", join(dir, "token"), "--project", file]);
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(message);
    expect(run.output()).not.toContain("ide-core is running");
  });

  it("exits with code 1 and shows the usage for an unknown option or a bad port", async () => {
    const unknown = start(["--colour"]);
    expect(await unknown.exited).toBe(1);
    expect(unknown.output()).toMatch(/Unknown option '--colour'[\s\S]*usage: npm start/);
    const port = start(["--port", "http"]);
    expect(await port.exited).toBe(1);
    expect(port.output()).toContain('--port must be a port number from 0 to 65535, not "http"');
  });

  it("resolves locators in the live page given with --page, in headless Chromium", async () => {
    const pageServer = createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end('<!doctype html><main><input id="live-field"></main>');
    });
    await new Promise<void>((resolve) => pageServer.listen(0, "127.0.0.1", resolve));
    try {
      const dir = scratch();
      const pageUrl = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/`;
      const run = start(["--port", "0", "--token-file", join(dir, "token"), "--page", pageUrl]);
      const [, uiUrl] = await waitForOutput(run, /IDE page\s+(\S+)/);
      expect(run.output()).toContain(`the live page ${pageUrl} in headless Chromium`);
      const [, token] = await waitForOutput(run, /token\s+(\S+)/);
      const socket = new WebSocket(`ws://${new URL(uiUrl).host}/plugins?id=cli-page&token=${token}`);
      const reply = await new Promise<unknown>((resolve, reject) => {
        socket.once("error", reject);
        socket.once("open", () =>
          socket.send(JSON.stringify({ type: "request", id: 1, message: { uri: "/playback/location", verb: "get", location: "id=live-field" } })),
        );
        socket.once("message", (data) => resolve(JSON.parse(data.toString())));
      });
      expect(reply).toEqual({ type: "reply", id: 1, reply: "//input[@id='live-field']" });
      run.child.kill("SIGINT");
      expect(await run.exited).toBe(0);
    } finally {
      pageServer.close();
    }
  });

  it("exits with code 1 and says how to install Chromium when --page needs it and it is missing", async () => {
    const run = start(["--port", "0", "--token-file", join(scratch(), "token"), "--page", "http://127.0.0.1:9/"], {
      CHROMIUM_PATH: "/nonexistent/chromium",
    });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain("Chromium is not installed at /nonexistent/chromium");
    expect(run.output()).toContain("apt-get install -y chromium");
  });

  it("exits with code 1 naming the page when --page cannot be loaded", async () => {
    // A port nothing listens on: taken from a server that is closed again.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const run = start(["--port", "0", "--token-file", join(scratch(), "token"), "--page", `http://127.0.0.1:${port}/`]);
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain(`Cannot load the page http://127.0.0.1:${port}/: net::ERR_CONNECTION_REFUSED`);
    expect(run.output()).not.toContain("ide-core is running");
  });

  it("exits with code 1 and says so when the port is in use", async () => {
    const dir = scratch();
    const first = start(["--port", "0", "--token-file", join(dir, "token")]);
    const [, pageUrl] = await waitForOutput(first, /IDE page\s+(\S+)/);
    const port = new URL(pageUrl).port;
    const second = start(["--port", port, "--token-file", join(dir, "token2")]);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`port ${port} on 127.0.0.1 is in use`);
  });

  it("plays the example project from the UI in headless Chromium, against the example site it serves", async () => {
    const run = start(["--port", "0", "--token-file", join(scratch(), "token")]);
    const [, uiUrl] = await waitForOutput(run, /IDE page\s+(\S+)/);
    await waitForOutput(run, /Press Ctrl-C/);
    expect(run.output()).toMatch(/plays against\s+http:\/\/127\.0\.0\.1:\d+ \(the example site/);
    const rows = await playFromUi(uiUrl, "t-cart");
    expect(rows.map((r) => [r.id, r.state])).toEqual([
      ["c2-open", "passed"],
      ["c2-add", "passed"],
      ["c2-assert", "passed"],
    ]);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
  });

  it("plays a --project against its own url, and against --base-url when given", async () => {
    const site = await startExampleSite();
    try {
      const dir = scratch();
      const example = JSON.parse(readFileSync(join(ROOT, "examples", "shop.side"), "utf8")) as Record<string, unknown>;
      const own = join(dir, "own.side");
      writeFileSync(own, JSON.stringify({ ...example, url: site.url }));
      const elsewhere = join(dir, "elsewhere.side");
      writeFileSync(elsewhere, JSON.stringify({ ...example, url: "http://127.0.0.1:9" }));
      for (const args of [["--project", own], ["--project", elsewhere, "--base-url", site.url]]) {
        const run = start(["--port", "0", "--token-file", join(dir, "token"), ...args]);
        const [, uiUrl] = await waitForOutput(run, /IDE page\s+(\S+)/);
        await waitForOutput(run, /Press Ctrl-C/);
        expect(run.output()).toContain(`plays against  ${site.url}`);
        const rows = await playFromUi(uiUrl, "t-cart");
        expect(rows.map((r) => r.state)).toEqual(["passed", "passed", "passed"]);
        run.child.kill("SIGINT");
        expect(await run.exited).toBe(0);
      }
    } finally {
      await site.close();
    }
  });

  it("starts without chromedriver, and the first run ends fatal saying how to install it", async () => {
    const run = start(["--port", "0", "--token-file", join(scratch(), "token"), "--chromedriver", "/nonexistent/chromedriver"]);
    const [, uiUrl] = await waitForOutput(run, /IDE page\s+(\S+)/);
    await waitForOutput(run, /Press Ctrl-C/);
    expect(run.output()).toContain("apt-get install -y chromium-driver");
    const rows = await playFromUi(uiUrl, "t-cart");
    expect(rows[0].state).toBe("fatal");
    expect(rows[0].message).toContain('Install it with "apt-get install -y chromium-driver"');
    expect(rows.slice(1).map((r) => r.state)).toEqual([null, null]);
    expect(run.child.exitCode).toBeNull(); // nothing else broke
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
  });
});

interface UiRow {
  id: string;
  state: string | null;
  message?: string | null;
}

/** Presses Play for `testId` through the UI page's socket and waits for the run to end; its command rows. */
async function playFromUi(uiUrl: string, testId: string): Promise<UiRow[]> {
  const url = new URL(uiUrl);
  const socket = new WebSocket(`ws://${url.host}/ui?token=${url.searchParams.get("token")}`);
  let rows: UiRow[] = [];
  let baseline: string | null | undefined; // the run shown before Play (none here)
  try {
    return await new Promise<UiRow[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the run did not end within 45 s")), 45_000);
      socket.once("error", reject);
      socket.on("message", (data) => {
        const message = JSON.parse(data.toString()) as {
          type: string;
          playback?: { status: string; runId: string } | null;
          commands?: { reset: boolean; rows?: UiRow[]; changed?: Array<{ index: number; row: UiRow }> };
        };
        if (message.type === "hello") {
          socket.send(JSON.stringify({ type: "user.startPlayback", testId }));
          return;
        }
        if (message.type !== "update") return;
        if (message.commands?.reset) rows = [...message.commands.rows!];
        else for (const { index, row } of message.commands?.changed ?? []) rows[index] = row;
        if (baseline === undefined) baseline = message.playback?.runId ?? null;
        const playback = message.playback;
        if (playback && playback.runId !== baseline && playback.status === "ended") {
          clearTimeout(timer);
          resolve(rows);
        }
      });
    });
  } finally {
    socket.close();
  }
}
