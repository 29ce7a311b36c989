// Data-driven tests in `npm start`'s IDE page (CONTRACT section 22), as a user meets them (a
// fresh HOME, the real process): while a loadVars block plays, its command in the table and
// the run's status say which row of the data file plays ("row 2 of 3"), with the row's values
// on hover. The page under test answers each row's request only when this test lets it go, so
// what the page shows is read while that row plays. And a data file no disk has, added to the
// project with "Add data file", is what its loadVars plays, until the add is undone.
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshNpmStart } from "../support/freshHost.ts";
import type { FreshHost } from "../support/freshHost.ts";
import { killLeftovers } from "../support/processes.ts";
import { pickTest } from "../support/idePage.ts";

let server: ReturnType<typeof createServer>;
let fresh: FreshHost | null = null;
/** The names /row was asked for, and the answers held back, in order. */
const asked: string[] = [];
const held: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/pet") return void res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><p id="pet">${(url.searchParams.get("name") ?? "").replace(/[<&]/g, "")}</p>`);
    if (url.pathname !== "/row") return void res.writeHead(404).end();
    const name = url.searchParams.get("name") ?? "";
    asked.push(name);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.write(`<!doctype html><title>Row</title><p id="name">${name.replace(/[<&]/g, "")}</p>`);
    held.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  for (const res of held) res.end();
  await fresh?.stop();
  killLeftovers();
  await new Promise((resolve) => server?.close(resolve));
});

const command = (id: string, name: string, target = "", value = "") => ({ id, comment: "", command: name, target, targets: [], value });

describe("npm start, a data-driven test", () => {
  it("shows the row being played beside its loadVars and in the run's status, with the row's values on hover", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ide-core-data-rows-"));
    writeFileSync(join(dir, "people.csv"), "name,age\nAda,36\nBob,7\nCy,51\n");
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const test = {
      id: "t-people",
      name: "people",
      commands: [command("c1", "loadVars", "people.csv"), command("c2", "open", "/row?name=${name}"), command("c3", "assertText", "id=name", "${name}"), command("c4", "endLoadVars")],
    };
    // Its data file is on no disk: the second test below adds it to the project.
    const pets = {
      id: "t-pets",
      name: "pets",
      commands: [command("p1", "loadVars", "pets.json"), command("p2", "open", "/pet?name=${pet}"), command("p3", "assertText", "id=pet", "${pet}"), command("p4", "endLoadVars")],
    };
    const file = join(dir, "people.side");
    writeFileSync(file, JSON.stringify({ id: "p", name: "People", url: origin, version: "2.0", tests: [test, pets], suites: [], urls: [], plugins: [] }));
    fresh = await freshNpmStart(undefined, ["--project", file]);
    const { ui } = fresh;
    await pickTest(ui, "people");
    await ui.getByRole("button", { name: "Play", exact: true }).click();

    const loadVarsRow = ui.locator('[data-testid="command-row"][data-command-id="c1"]');
    for (const [index, name] of ["Ada", "Bob", "Cy"].entries()) {
      await expect.poll(() => asked.length, { timeout: 60_000 }).toBe(index + 1);
      expect(asked[index]).toBe(name);
      const badge = loadVarsRow.getByTestId("data-row");
      await expect.poll(() => badge.textContent().then((text) => text?.replace(/:.*/, "")), { timeout: 10_000 }).toBe(`row ${index + 1} of 3`);
      if (name === "Bob") {
        expect(await badge.getAttribute("title")).toBe("name = Bob\nage = 7");
        expect(await ui.getByTestId("run-data-rows").textContent()).toBe("Data: row 2 of 3");
      }
      held[index].end();
    }
    await expect.poll(() => ui.getByTestId("run-result").textContent().catch(() => null), { timeout: 60_000 }).toBe("passed");
    expect(await loadVarsRow.getByTestId("data-row").count()).toBe(0);
    expect(await ui.getByTestId("run-data-rows").count()).toBe(0);
  }, 180_000);

  it("plays a data file added to the project with Add data file, and fails the loadVars again once the add is undone", async () => {
    const { ui } = fresh!;
    await pickTest(ui, "pets");
    await ui.getByRole("button", { name: "Play", exact: true }).click();
    await expect.poll(() => ui.getByTestId("run-result").textContent().catch(() => null), { timeout: 60_000 }).toBe("failed");
    const loadVars = ui.locator('[data-testid="command-row"][data-command-id="p1"] [data-testid="command-message"]');
    expect(await loadVars.textContent()).toContain('Nor does the project carry a data file of that name (add one with "Add data file")');

    expect(await ui.getByTestId("no-data-files").count()).toBe(1);
    await ui.getByTestId("add-data-file").setInputFiles({ name: "pets.json", mimeType: "application/json", buffer: Buffer.from('[{"pet": "Rex"}, {"pet": "Tom"}]') });
    await expect.poll(() => ui.getByTestId("data-file").allTextContents()).toEqual([expect.stringContaining("pets.json")]);
    await ui.getByRole("button", { name: "Play", exact: true }).click();
    await expect.poll(() => ui.getByTestId("run-result").textContent().catch(() => null), { timeout: 60_000 }).toBe("passed");

    await ui.getByRole("button", { name: "Undo", exact: true }).click();
    await expect.poll(() => ui.getByTestId("no-data-files").count()).toBe(1);
    await ui.getByRole("button", { name: "Play", exact: true }).click();
    await expect.poll(() => ui.getByTestId("run-result").textContent().catch(() => null), { timeout: 60_000 }).toBe("failed");
  }, 180_000);
});
