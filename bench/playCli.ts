// What the benchmarks that time `npm run play` as a process share (ci.ts, grid.ts): pages on
// 127.0.0.1 that the server holds back, and one run of the CLI as npm runs it (tsx bin/play.ts),
// checked to pass every test, with its wall time and the time its own summary line gives.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { check, now } from "./support.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

const FORM = `<!doctype html><html><head><title>Form</title></head><body>
  <input id="name" oninput="document.getElementById('out').textContent = this.value"><p id="out"></p></body></html>`;

/** Slow pages (`/slow/NAME?ms=N`, held back N ms, a second by default) and the data test's form, on 127.0.0.1. */
export async function servePages() {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const path = url.pathname;
    const send = (html: string) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      response.end(html);
    };
    if (path === "/form") return send(FORM);
    if (path.startsWith("/slow/")) return void setTimeout(() => send(`<!doctype html><title>Slow</title><h1>Slow ${path.slice(6)}</h1>`), Number(url.searchParams.get("ms") ?? 1_000));
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** One `npm run play` process (tsx bin/play.ts, as npm runs it): its wall time and the time its summary line gives. */
export function playCli(args: string[], dir: string, tests: number): Promise<{ wall: number; own: number }> {
  const t0 = now();
  const child = spawn(process.execPath, ["--import", "tsx", "bin/play.ts", ...args, "--port", "0", "--token-file", join(dir, "token")], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => {
      const wall = now() - t0;
      const summary = out.match(/(\d+) tests?: (\d+) passed, .* in ([\d.,]+) s/);
      try {
        check(code === 0 && summary !== null && Number(summary[1]) === tests && Number(summary[2]) === tests, `npm run play ${args.join(" ")} passed all ${tests} tests (exit ${code}):\n${out.slice(-1500)}`);
        resolve({ wall, own: Number(summary![3].replace(/,/g, "")) * 1000 });
      } catch (error) {
        reject(error);
      }
    });
  });
}

