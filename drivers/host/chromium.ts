// Headless Chromium for the host (`--page URL`) and the browser tests: Debian's chromium
// through playwright-core, with the flags that work on machines without a GPU or a
// sandbox, and a message that says what to do when it is missing.
import { existsSync } from "node:fs";
import type { Browser, BrowserContext, LaunchOptions } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Without the background-networking flags Chromium keeps calling hosts a closed network refuses. */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export class ChromiumMissingError extends Error {
  constructor(path: string) {
    super(
      `Chromium is not installed at ${path}. Install it with "apt-get install -y chromium" (as root), ` +
        `or point CHROMIUM_PATH at a Chromium or Chrome executable.`,
    );
    this.name = "ChromiumMissingError";
  }
}

/** Throws ChromiumMissingError, naming the path and the fix, when there is no executable. */
export function chromiumExecutable(): string {
  if (!existsSync(CHROMIUM_PATH)) throw new ChromiumMissingError(CHROMIUM_PATH);
  return CHROMIUM_PATH;
}

/** playwright-core, loaded when a browser is first launched: a second of a start that launches none (npm run play drives Chromium through chromedriver). */
const playwright = () => import("playwright-core");

export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const { chromium } = await playwright();
  return chromium.launch({
    executablePath: chromiumExecutable(),
    headless: true,
    // The host stops Chromium itself on Ctrl-C, after closing its connections.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    ...options,
    args: [...CHROMIUM_FLAGS, ...(options.args ?? [])],
  });
}

/**
 * Chromium with unpacked extensions loaded, in a fresh profile at `userDataDir` (extensions
 * load only into a persistent context). Their workers show up in `context.serviceWorkers()`.
 */
export async function launchWithExtensions(
  userDataDir: string,
  extensionDirs: readonly string[],
  options: { args?: string[] } = {},
): Promise<BrowserContext> {
  if (extensionDirs.length === 0) throw new TypeError("launchWithExtensions needs at least one extension folder.");
  const list = extensionDirs.join(",");
  const { chromium } = await playwright();
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumExecutable(),
    headless: true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: [...CHROMIUM_FLAGS, `--disable-extensions-except=${list}`, `--load-extension=${list}`, ...(options.args ?? [])],
  });
}
