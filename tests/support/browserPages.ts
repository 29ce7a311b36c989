// What the Chromium tests of in-page code share: a module bundled for the page as the
// extension bundles its content scripts (nothing Node-only can creep in), and a site on
// 127.0.0.1 serving fixed pages by path.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

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
