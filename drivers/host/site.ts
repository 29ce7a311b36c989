// The example site: examples/shop-page.html over HTTP on its own port, at every path, so
// the example project's `open /login` and `open /shop` work in the browser that `npm start`
// drives, without anything else running.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { EXAMPLE_PAGE_PATH } from "./pages.ts";

/** The shipped example project, which plays against this site (npm start, npm run play). */
export const EXAMPLE_PROJECT_PATH = fileURLToPath(new URL("../../examples/shop.side", import.meta.url));

export interface ExampleSite {
  /** http://127.0.0.1:PORT, the base URL the example project plays against. */
  url: string;
  close(): Promise<void>;
}

export async function startExampleSite(port = 0, page = EXAMPLE_PAGE_PATH): Promise<ExampleSite> {
  const server = createServer(async (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD" }).end();
      return;
    }
    if ((req.url ?? "/").startsWith("/favicon")) {
      res.writeHead(404).end();
      return;
    }
    try {
      const html = await readFile(page);
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : html);
    } catch {
      res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end(`Cannot read ${page}.\n`);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
