// The launch the extension e2e files share, as vitest hooks: the IDE extension built and the
// plugin extensions made once, a site on 127.0.0.1 served for the file, and for each test
// (or once for the file) a fresh Chromium whose tab under test shows the site and whose first
// plugin opened the IDE window. A script or console error in that window fails the test.
// Kept apart from extensions.ts, which the benchmark imports outside vitest.
import type { BrowserContext, Page, Worker } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { servePages } from "./browserPages.ts";
import { buildIdeExtension, launchIde, makePluginExtension } from "./extensions.ts";
import type { MadeExtension } from "./extensions.ts";

export interface ServedSite {
  origin: string;
  close(): Promise<void>;
}

/** A blank page the tab under test starts on, at /start, when `pages` are given. */
export const START_PAGE = "<!doctype html><title>Start</title><p>start</p>";

export interface IdeExtensionOptions {
  /** The plugin extensions beside the IDE, by name (and whether they listen); the first opens the IDE window. */
  plugins: Array<string | { name: string; listens?: boolean }>;
  /** The site's pages by path (a blank /start added), answered late for the paths in `slowMs`... */
  pages?: Record<string, string>;
  slowMs?: Record<string, number>;
  /** ...or a site served by the caller. */
  site?: () => Promise<ServedSite>;
  /** Where the tab under test starts on the site: /start unless told. */
  start?: string;
  /** Whether the first plugin opens the IDE window at each launch: yes unless told. */
  openWindow?: boolean;
  /** One browser for the whole file, not a fresh one for each test. */
  once?: boolean;
}

/**
 * What the hooks launched, for the test that runs now. A test may swap `context` (and `tab`,
 * `window`) for a browser of its own: the hooks close whichever is here at the end.
 */
export interface IdeExtension {
  ideDir: string;
  extensions: MadeExtension[];
  site: ServedSite;
  context: BrowserContext;
  tab: Page;
  window: Page;
  /** The plugins' workers, in the order of `plugins`. */
  workers: Worker[];
  /** The IDE window's script and console errors: empty at the end of each test, or it fails. */
  windowErrors: string[];
}

const LIMIT_MS = 120_000;

/** Registers the hooks that launch the IDE extension (see the top of this file); call it at a file's top level. */
export function useIdeExtension(options: IdeExtensionOptions): IdeExtension {
  const ide = { windowErrors: [] as string[] } as IdeExtension;
  const launch = async () => {
    ide.windowErrors = [];
    const url = ide.site ? new URL(options.start ?? "/start", ide.site.origin).href : undefined;
    const launched = await launchIde(ide.ideDir, ide.extensions, { url, openWindow: options.openWindow, errors: ide.windowErrors });
    Object.assign(ide, launched);
  };
  const close = async () => {
    await ide.context?.close();
    expect(ide.windowErrors).toEqual([]);
  };
  beforeAll(async () => {
    ide.ideDir = await buildIdeExtension();
    ide.extensions = options.plugins.map((p) => (typeof p === "string" ? makePluginExtension(p) : makePluginExtension(p.name, p)));
    if (options.site) ide.site = await options.site();
    else if (options.pages) ide.site = await servePages({ "/start": START_PAGE, ...options.pages }, options.slowMs);
  }, LIMIT_MS);
  afterAll(async () => {
    await ide.site?.close();
  });
  if (options.once) {
    beforeAll(launch, LIMIT_MS);
    afterAll(close, LIMIT_MS);
  } else {
    beforeEach(launch, LIMIT_MS);
    afterEach(close, LIMIT_MS);
  }
  return ide;
}

/** A command of a .side test, with no other locators. */
export const cmd = (id: string, command: string, target = "", value = "") => ({ id, comment: "", command, target, targets: [], value });

/** A .side project `id` named `name` on `origin`, with one test (id t1). */
export function oneTestProject(origin: string, id: string, name: string, test: { name: string; commands: unknown[] }) {
  return { id, version: "2.0", name, url: origin, tests: [{ id: "t1", ...test }], suites: [], urls: [origin], plugins: [] };
}

/** The user loads `project` from a file (named for its id) in the IDE window; resolves once the window shows its name. */
export async function loadProjectFile(window: Page, project: { id: string; name: string }): Promise<void> {
  await window.locator('[data-testid="load-file"]').setInputFiles({ name: `${project.id}.side`, mimeType: "application/json", buffer: Buffer.from(JSON.stringify(project)) });
  await window.waitForSelector(`[data-testid="project-name"]:has-text("${project.name}")`);
}

/**
 * The user presses Play in the IDE window; resolves once THIS run has ended. The status line
 * keeps the run before's "ended" until the new run starts, so the wait is for a new run id.
 */
export async function playToTheEnd(window: Page, timeout = 60_000): Promise<void> {
  const status = window.locator('[data-testid="run-status"]');
  const before = (await status.count()) > 0 ? await status.getAttribute("data-run-id") : null;
  await window.getByRole("button", { name: "Play", exact: true }).click();
  const now = async () => ((await status.count()) > 0 ? { runId: await status.getAttribute("data-run-id"), status: await status.getAttribute("data-status") } : null);
  await expect.poll(async () => { const shown = await now(); return shown !== null && shown.runId !== before && shown.status === "ended"; }, { timeout }).toBe(true);
}
