// A suite's persistSession in `npm start`'s IDE page (CONTRACT section 22), as a user starts it
// (a fresh HOME, the real process): Play suite on a persistSession suite keeps the cookie and the
// variables the first test left for the second, and the same tests in a suite without it start
// the second in a fresh browser session, with no variables.
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshNpmStart } from "../support/freshHost.ts";
import type { FreshHost } from "../support/freshHost.ts";
import { killLeftovers } from "../support/processes.ts";
import { pickSuite } from "../support/idePage.ts";

let server: ReturnType<typeof createServer>;
let fresh: FreshHost | null = null;

beforeAll(async () => {
  // /set sets a cookie; /show prints the cookie the browser sent and the name the test passed.
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const headers: Record<string, string> = { "content-type": "text/html; charset=utf-8" };
    if (url.pathname === "/set") headers["set-cookie"] = "who=alice; Path=/";
    else if (url.pathname !== "/show") return void res.writeHead(404).end();
    const seen = `cookie=${req.headers.cookie ?? ""} name=${url.searchParams.get("name") ?? ""}`;
    res.writeHead(200, headers).end(`<!doctype html><title>Session</title><p id="seen">${seen.replace(/[<&]/g, "")}</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  await fresh?.stop();
  killLeftovers();
  await new Promise((resolve) => server?.close(resolve));
});

const command = (id: string, name: string, target = "", value = "") => ({ id, comment: "", command: name, target, targets: [], value });

describe("npm start, a suite's persistSession", () => {
  it("keeps the cookie and the variables for the next test of a persistSession suite, and neither without it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ide-core-suite-settings-"));
    const file = join(dir, "session.side");
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const sets = { id: "t-set", name: "sets", commands: [command("s1", "open", "/set"), command("s2", "store", "alice", "name")] };
    const checks = { id: "t-check", name: "checks", commands: [command("k1", "open", "/show?name=${name}"), command("k2", "assertText", "id=seen", "cookie=who=alice name=alice")] };
    const suite = (id: string, name: string, persistSession: boolean) => ({ id, name, persistSession, parallel: false, timeout: 300, tests: ["t-set", "t-check"] });
    const project = { id: "p", name: "Sessions", url: origin, version: "2.0", tests: [sets, checks], suites: [suite("s-shared", "Shared", true), suite("s-fresh", "Fresh", false)], urls: [], plugins: [] };
    writeFileSync(file, JSON.stringify(project));
    fresh = await freshNpmStart(undefined, ["--project", file]);
    const { ui } = fresh;
    const runs = async () => (await ui.getByTestId("suite-run").allTextContents()).map((text) => text.replace(/\s+/g, " ").trim());

    await pickSuite(ui, "Shared");
    await ui.getByRole("button", { name: "Play suite", exact: true }).click();
    await expect.poll(() => ui.getByTestId("run-result").textContent().catch(() => null), { timeout: 90_000 }).toBe("passed");
    expect(await runs()).toEqual(["sets ended passed", "checks ended passed"]);

    await pickSuite(ui, "Fresh");
    await ui.getByRole("button", { name: "Play suite", exact: true }).click();
    await expect.poll(() => ui.getByTestId("run-result").textContent().catch(() => null), { timeout: 90_000 }).toBe("failed");
    expect(await runs()).toEqual(["sets ended passed", "checks ended failed"]);
    // What the second test's page saw: no cookie from the first test's browser, no name stored.
    const failed = ui.getByTestId("command-message").filter({ hasText: "cookie=" });
    await expect.poll(() => failed.first().textContent().catch(() => "")).toContain("cookie= name=${name}");
  }, 240_000);
});
