// The host's page under test for real (drivers/host/browserPage.ts): headless Chromium through
// Debian's chromedriver, its page commands played by the one player over DevTools and the rest
// by side-runtime's WebDriverExecutor, against the example
// site (drivers/host/site.ts). Runs go through createIde with an in-process plugin, so a
// plugin command runs between real clicks. Never skipped: `npm test` installs Chromium and
// chromedriver first (bin/ensure-test-tools.ts).
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createIde } from "../../index.ts";
import type { Ide, OutboundMessage } from "../../index.ts";
import { drivenResolver } from "../../apps/host/host.ts";
import { startExampleSite } from "../../drivers/host/site.ts";
import type { ExampleSite } from "../../drivers/host/site.ts";
import { browserPage } from "../../drivers/host/browserPage.ts";
import { CHROMEDRIVER_PATH } from "../../drivers/host/chromedriver.ts";
import type { BrowserPage } from "../../drivers/host/browserPage.ts";
import { CHROMIUM_PATH } from "../../drivers/host/chromium.ts";

const EXAMPLE = JSON.parse(readFileSync(new URL("../../examples/shop.side", import.meta.url), "utf8")) as {
  tests: Array<{ id: string; commands: Array<{ id: string }> }>;
};
const WAIT = { timeout: 45_000, interval: 50 };

type Row = [id: string, command: string, target?: string, value?: string];
const projectOf = (rows: Row[]) => ({
  id: "real",
  name: "Real page",
  url: "http://127.0.0.1:1", // the executor's baseUrl (the example site) replaces it
  tests: [{ id: "t", name: "t", commands: rows.map(([id, command, target = "", value = ""]) => ({ id, command, target, value })) }],
});

/** Opens the shop, then the plugin's killDriver kills chromedriver before the cart's click and check (a fresh project each time). */
const killedMidRun = () =>
  projectOf([
    ["open", "open", "/shop"],
    ["kill", "killDriver"],
    ["click", "click", "linkText=Add to cart"],
    ["assert", "assertText", "css=.cart-count", "1"],
  ]);

type Execute = Extract<OutboundMessage, { action: "execute" }>;

let site: ExampleSite;
let page: BrowserPage;

beforeAll(async () => {
  site = await startExampleSite();
  page = browserPage({ baseUrl: site.url });
});

afterAll(async () => {
  await page?.close();
  await site?.close();
});

/** An IDE over the shared page, with plugin "p" declaring `commands`, whose `execute` calls `onExecute`; `retries` is createIde's. */
async function ideWith(project: unknown, commands: string[], onExecute: (message: Execute, ide: Ide) => unknown = () => true, executor = page, retries = 0) {
  let ide!: Ide;
  const executes: Execute[] = [];
  const deliver = async (_to: string, message: OutboundMessage) => {
    if (message.action !== "execute") return true;
    executes.push(message);
    return onExecute(message, ide);
  };
  // Locators resolve in the driven page while there is one; the fallback knows no element at all.
  const empty = new JSDOM("<!doctype html><p>nothing here</p>").window.document;
  ide = createIde({ project, deliver, executor, resolveLocator: drivenResolver(executor, undefined, empty), retries });
  if (commands.length > 0) {
    const reply = await ide.handle(
      { uri: "/register", verb: "post", payload: { name: "Real plugin", version: "1.0.0", commands: commands.map((id) => ({ id, name: id })) } },
      { id: "p" },
    );
    expect(reply).toBe(true);
  }
  return { ide, executes };
}

/** Plays a test from the UI and waits for its run to end; each command as [id, state, message]. */
async function play(ide: Ide, testId?: string) {
  const before = ide.getSnapshot().playback?.runId ?? null;
  ide.send({ type: "user.startPlayback", ...(testId ? { testId } : {}) });
  await vi.waitFor(() => {
    const playback = ide.getSnapshot().playback;
    expect(playback?.runId).not.toBe(before);
    expect(playback?.status).toBe("ended");
  }, WAIT);
  const playback = ide.getSnapshot().playback!;
  return { result: playback.result, states: playback.commands.map((c) => [c.id, c.state, c.message ?? null]) };
}

/** The processes whose parent is `pid` (Linux's /proc): the browser chromedriver started. */
function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // /proc/PID/stat: "pid (name) state ppid ..."; the name may hold spaces, so split after ")".
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}


describe("the host's page under test: headless Chromium through chromedriver", () => {
  it("plays the example project's page tests, and every command passes", async () => {
    const { ide, executes } = await ideWith(EXAMPLE, ["eyesCheckWindow"]);
    for (const testId of ["t-login", "t-cart"]) {
      const { result, states } = await play(ide, testId);
      const ids = EXAMPLE.tests.find((t) => t.id === testId)!.commands.map((c) => c.id);
      expect(states.map(([id, state]) => [id, state])).toEqual(ids.map((id) => [id, "passed"]));
      expect(result).toBe("passed");
    }
    expect(executes.map((e) => e.command.command)).toEqual(["eyesCheckWindow"]);
    ide.stop();
  });

  it("ends a test at a failing assertText, and the commands after it keep no state", async () => {
    const { ide } = await ideWith(
      projectOf([
        ["open", "open", "/shop"],
        ["assert", "assertText", "css=.cart-count", "5"],
        ["click", "click", "linkText=Add to cart"],
        ["after", "assertText", "css=.cart-count", "1"],
      ]),
      [],
    );
    const { result, states } = await play(ide);
    expect(states).toEqual([
      ["open", "passed", null],
      ["assert", "failed", "Actual value '0' did not match '5'"],
      ["click", null, null],
      ["after", null, null],
    ]);
    expect(result).toBe("failed");
    ide.stop();
  });

  it("goes on after a failing verifyText, and names a command the page does not know", async () => {
    const { ide } = await ideWith(
      projectOf([
        ["open", "open", "/shop"],
        ["verify", "verifyText", "css=.cart-count", "9"],
        ["click", "click", "linkText=Add to cart"],
        ["assert", "assertText", "css=.cart-count", "1"],
        ["verifyUnknown", "verifyTextSoftly", "css=.cart-count", "1"],
      ]),
      [],
    );
    const { result, states } = await play(ide);
    expect(states.slice(0, 4)).toEqual([
      ["open", "passed", null],
      ["verify", "failed", "Actual value '0' did not match '9'"],
      ["click", "passed", null],
      ["assert", "passed", null],
    ]);
    expect(states[4][1]).toBe("failed");
    expect(states[4][2]).toBe(
      "Unknown command verifyTextSoftly: no registered plugin has it, and it is none of Selenium IDE's commands, which the page under test plays.",
    );
    expect(result).toBe("failed");
    ide.stop();
  });

  it("runs a plugin command between page commands, with a storeText value in its target, and GET /playback/location answers for the driven page", async () => {
    const answers: unknown[] = [];
    const { ide, executes } = await ideWith(
      projectOf([
        ["open", "open", "/shop"],
        ["store", "storeText", "css=.product .title", "product"],
        ["check", "pluginCheck", "${product}", "${product} in the cart"],
        ["click", "click", "linkText=Add to cart"],
        ["assert", "assertText", "css=.cart-count", "1"],
      ]),
      ["pluginCheck"],
      async (_message, ide) => {
        // A plugin asks about an element of the page the run is on (the fallback has none).
        answers.push(await ide.handle({ uri: "/playback/location", verb: "get", location: "css=.cart-count" }, { id: "p" }));
        return true;
      },
    );
    const { result, states } = await play(ide);
    expect(states.map(([id, state]) => [id, state])).toEqual(["open", "store", "check", "click", "assert"].map((id) => [id, "passed"]));
    expect(result).toBe("passed");
    expect(executes.map((e) => e.command)).toEqual([{ command: "pluginCheck", target: "Red shoes", value: "Red shoes in the cart" }]);
    expect(answers).toEqual(["//main[@id='main']/div"]);
    expect(ide.getSnapshot().playback!.variables).toMatchObject({ product: "Red shoes" });
    ide.stop();
  });

  it("ends the run fatal when chromedriver is killed mid-run, and the next run starts a new browser, as after a kill between runs", async () => {
    const { ide } = await ideWith(
      killedMidRun(),
      ["killDriver"],
      async () => {
        const pid = page.chromedriverPid();
        expect(pid).not.toBeNull();
        process.kill(pid!, "SIGKILL");
        await vi.waitFor(() => expect(page.chromedriverPid()).toBeNull(), WAIT);
        return true;
      },
    );
    const first = await play(ide);
    expect(first.states.slice(0, 2)).toEqual([
      ["open", "passed", null],
      ["kill", "passed", null],
    ]);
    expect(first.states[2][1]).toBe("fatal");
    expect(first.states[2][2]).toMatch(/gone/);
    expect(first.states[3]).toEqual(["assert", null, null]);
    expect(first.result).toBe("failed");

    const { ide: next } = await ideWith(
      projectOf([
        ["open", "open", "/shop"],
        ["click", "click", "linkText=Add to cart"],
        ["assert", "assertText", "css=.cart-count", "1"],
      ]),
      [],
    );
    const second = await play(next);
    expect(second.states.map(([, state]) => state)).toEqual(["passed", "passed", "passed"]);

    // Killed between runs: the next run starts a new one too.
    process.kill(page.chromedriverPid()!, "SIGKILL");
    await vi.waitFor(() => expect(page.chromedriverPid()).toBeNull(), WAIT);
    const third = await play(next);
    expect(third.states.map(([, state]) => state)).toEqual(["passed", "passed", "passed"]);

    // Chromium itself gone between runs (chromedriver still up, its session dead): the next run
    // finds it gone before it sends anything, and gets a new one.
    const browsers = childrenOf(page.chromedriverPid()!);
    expect(browsers.length).toBeGreaterThan(0);
    for (const pid of browsers) process.kill(pid, "SIGKILL");
    const { driver } = await page.sideRuntime();
    await vi.waitFor(() => expect(driver.getWindowHandle()).rejects.toThrow(/session/), WAIT);
    const fourth = await play(next);
    expect(fourth.states.map(([, state]) => state)).toEqual(["passed", "passed", "passed"]);
    ide.stop();
    next.stop();
  });

  it("plays a test that ended fatal (chromedriver killed) again at once with retries, in a new browser, and it passes", async () => {
    let kills = 0;
    const { ide } = await ideWith(
      killedMidRun(),
      ["killDriver"],
      async () => {
        if (kills++ > 0) return true;
        process.kill(page.chromedriverPid()!, "SIGKILL");
        await vi.waitFor(() => expect(page.chromedriverPid()).toBeNull(), WAIT);
        return true;
      },
      page,
      1,
    );
    const tries: string[] = [];
    const watching = ide.onTestEnded((ended) => tries.push(`${ended.tryNo} ${ended.result}`));
    const run = await play(ide);
    expect(tries).toEqual(["1 fatal", "2 passed"]);
    expect(run.states.map(([, state]) => state)).toEqual(["passed", "passed", "passed", "passed"]);
    expect(run.result).toBe("passed");
    watching.unsubscribe();
    ide.stop();
  });

  it("lets go of a command waiting for an element when the run is stopped, and the page plays the next run", async () => {
    const { ide } = await ideWith(
      projectOf([
        ["open", "open", "/shop"],
        ["wait", "click", "id=never-there"],
        ["after", "assertText", "css=.cart-count", "0"],
      ]),
      [],
    );
    ide.send({ type: "user.startPlayback" });
    await vi.waitFor(() => expect(ide.getSnapshot().playback?.currentCommandId).toBe("wait"), WAIT);
    ide.send({ type: "user.stopPlayback" });
    await vi.waitFor(() => expect(ide.getSnapshot().playback?.status).toBe("ended"), WAIT);
    expect(ide.getSnapshot().playback!.commands.map((c) => [c.id, c.state])).toEqual([
      ["open", "passed"],
      ["wait", "undetermined"],
      ["after", null],
    ]);
    const again = await play(ide);
    expect(again.states.slice(0, 1)).toEqual([["open", "passed", null]]);
    ide.stop();
  });

  it("plays the same run through --webdriver-url, a chromedriver started by hand", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const driver = spawn(CHROMEDRIVER_PATH, [`--port=${port}`], { stdio: "ignore" });
    const remote = browserPage({ webdriverUrl: `http://127.0.0.1:${port}`, chromiumPath: CHROMIUM_PATH, baseUrl: site.url });
    try {
      await vi.waitFor(async () => expect((await fetch(`http://127.0.0.1:${port}/status`)).ok).toBe(true), WAIT);
      const { ide } = await ideWith(EXAMPLE, [], undefined, remote);
      const { result, states } = await play(ide, "t-cart");
      expect(states.map(([, state]) => state)).toEqual(["passed", "passed", "passed"]);
      expect(result).toBe("passed");
      expect(remote.chromedriverPid()).toBeNull(); // it started none of its own
      ide.stop();
    } finally {
      await remote.close();
      driver.kill("SIGTERM");
    }
  });
});
