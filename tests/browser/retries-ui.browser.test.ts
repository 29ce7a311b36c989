// `npm start -- --retries 1` as a user starts it (a fresh HOME, the real process) with a project
// whose page fails every other load: Play suite in the IDE page plays the failed test again at
// once, before the suite's next; the run passes, and the IDE page lists both tries, the second
// named "(try 2)"; the test played alone shows its second try as "try 2".
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshNpmStart } from "../support/freshHost.ts";
import type { FreshHost } from "../support/freshHost.ts";
import { killLeftovers } from "../support/processes.ts";
import { pickTest } from "../support/idePage.ts";

let loads = 0;
let server: ReturnType<typeof createServer>;
let fresh: FreshHost | null = null;

beforeAll(async () => {
  // "broken" at its odd loads, "ready" at the even ones: the page counts its loads.
  server = createServer((req, res) => {
    if (new URL(req.url ?? "/", "http://127.0.0.1").pathname !== "/") return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><title>Flaky</title><p id="state">${++loads % 2 === 1 ? "broken" : "ready"}</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  await fresh?.stop();
  killLeftovers();
  await new Promise((resolve) => server?.close(resolve));
});

const command = (id: string, name: string, target = "", value = "") => ({ id, comment: "", command: name, target, targets: [], value });

describe("npm start with --retries", () => {
  it("plays a suite's test that fails once again at once from the IDE page, before the next: the run passes, and both tries are listed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ide-core-retries-ui-"));
    const file = join(dir, "flaky.side");
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const flaky = { id: "t-flaky", name: "gets ready", commands: [command("f1", "open", "/"), command("f2", "assertText", "id=state", "ready")] };
    const next = { id: "t-next", name: "still ready", commands: [command("n1", "assertText", "id=state", "ready")] };
    // The next test reads the page the first left: the suite shares its session (CONTRACT section 22).
    const suite = { id: "s-flaky", name: "Flaky suite", persistSession: true, parallel: false, timeout: 300, tests: ["t-flaky", "t-next"] };
    writeFileSync(file, JSON.stringify({ id: "p", name: "Flaky project", url: origin, version: "2.0", tests: [flaky, next], suites: [suite], urls: [], plugins: [] }));
    fresh = await freshNpmStart(undefined, ["--retries", "1", "--project", file]);
    const { ui } = fresh;
    await ui.getByRole("button", { name: "Play suite", exact: true }).click();
    await expect.poll(() => ui.getByTestId("run-result").textContent().catch(() => null), { timeout: 60_000 }).toBe("passed");
    expect(loads).toBe(2);
    const tries = ui.getByTestId("suite-run");
    expect((await tries.allTextContents()).map((text) => text.replace(/\s+/g, " ").trim())).toEqual([
      "gets ready ended failed",
      "gets ready (try 2) ended passed",
      "still ready ended passed",
    ]);
    expect(await tries.locator("button").evaluateAll((buttons) => buttons.map((b) => b.getAttribute("aria-pressed")))).toEqual(["false", "false", "true"]);
    // The first try, picked in the list, opens in its own trace: the failed one.
    await tries.nth(0).getByRole("button").click();
    const runs = ui.getByTestId("trace-runs");
    await expect.poll(() => runs.evaluate((select) => (select as HTMLSelectElement).selectedOptions[0].textContent)).toBe("Flaky suite › gets ready: failed");

    // The flaky test alone: its second try is the one shown, marked as such.
    await pickTest(ui, "gets ready");
    await ui.getByRole("button", { name: "Play", exact: true }).click();
    await expect.poll(() => ui.getByTestId("run-try").textContent().catch(() => null), { timeout: 60_000 }).toBe("try 2");
    await expect.poll(() => ui.getByTestId("run-result").textContent().catch(() => null), { timeout: 60_000 }).toBe("passed");
    expect(loads).toBe(4);
    expect(await ui.getByTestId("command-state").allTextContents()).toEqual(["passed", "passed"]);
  }, 120_000);
});
