// What the Chromium tests of in-page code share: a module bundled for the page as the
// extension bundles its content scripts (nothing Node-only can creep in), a site on
// 127.0.0.1 serving fixed pages by path, and the hooks that put the two together.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { launchChromium } from "../../drivers/host/chromium.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** `contents` (TypeScript, imports relative to the repository's root) as one script for the browser. */
export async function bundleForPage(contents: string, globalName?: string): Promise<string> {
  const built = await build({
    stdin: { contents, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    write: false,
    format: "iife",
    globalName,
    platform: "browser",
    target: "chrome116",
    logLevel: "silent",
  });
  return built.outputFiles[0].text;
}

/** Serves `pages` by path, to any method (404 for any other path); `origin` is where. A path in `slowMs` is answered that many ms late (a slow server). */
export async function servePages(pages: Record<string, string>, slowMs: Record<string, number> = {}): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const body = pages[path];
    const answer = () => {
      res.writeHead(body === undefined ? 404 : 200, { "content-type": "text/html; charset=utf-8" });
      res.end(body ?? "");
    };
    req.resume(); // a posted form's body is read and dropped
    if (slowMs[path]) setTimeout(answer, slowMs[path]);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    // A browser that outlives the site (a Grid's session) keeps its connections open: they are closed too.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Registers a file's hooks: `pages` served, `source` bundled (see bundleForPage) and one
 * headless Chromium for the file; before each test, a fresh page in a context of its own
 * (nothing stored carries over) at `path`, with the bundle run in it; with `frames`, once the
 * frames whose URLs match have loaded, the bundle runs in every frame. Gives the current page.
 */
export function bundleInPages(
  pages: Record<string, string>,
  path: string,
  source: string,
  options: { globalName?: string; frames?: RegExp[] } = {},
): () => Page {
  let site: Awaited<ReturnType<typeof servePages>>;
  let browser: Browser;
  let page: Page | undefined;
  let bundle: string;

  beforeAll(async () => {
    bundle = await bundleForPage(source, options.globalName);
    site = await servePages(pages);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  beforeEach(async () => {
    await page?.close();
    page = await browser.newPage();
    await page.goto(`${site.origin}${path}`);
    if (!options.frames) return void (await page.evaluate(`${bundle}; void 0`));
    for (const url of options.frames) await page.frame({ url })!.waitForLoadState();
    for (const frame of page.frames()) await frame.evaluate(`${bundle}; void 0`);
  });

  return () => page!;
}
