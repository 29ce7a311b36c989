// A newcomer's `npm start`: the real process with a HOME of its own (nothing saved, nothing
// played before), its IDE page opened in headless Chromium at the address it printed.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../../drivers/host/chromium.ts";
import { runScript, waitForOutput } from "./processes.ts";
import type { Run } from "./processes.ts";

export interface FreshHost {
  run: Run;
  browser: Browser;
  /** The IDE page, connected. */
  ui: Page;
  home: string;
  /** Ctrl-C, as the user stops it; resolves with its exit code. */
  stop(): Promise<number | null>;
}

/** `args` are npm start's own (after --port 0), as a user would give them. */
export async function freshNpmStart(viewport = { width: 1400, height: 1250 }, args: string[] = []): Promise<FreshHost> {
  const home = mkdtempSync(join(tmpdir(), "ide-core-newcomer-"));
  const run = runScript("bin/start.ts", ["--port", "0", ...args], { HOME: home });
  let browser: Browser | null = null;
  try {
    const [, address] = await waitForOutput(run, /IDE page\s+(\S+)/);
    browser = await launchChromium();
    const ui = await (await browser.newContext({ viewport })).newPage();
    await ui.goto(address);
    await ui.waitForSelector('[data-testid="connection"]:text-is("connected")');
    const opened = browser;
    return {
      run,
      browser: opened,
      ui,
      home,
      async stop() {
        await opened.close();
        run.child.kill("SIGINT");
        return run.exited;
      },
    };
  } catch (error) {
    await browser?.close();
    run.child.kill("SIGKILL");
    throw error;
  }
}
