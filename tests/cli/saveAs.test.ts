// Save as and the recent list with the real host (CONTRACT section 20): `npm start` as a process
// in a fresh home folder, driven over the IDE page's socket as the page does. The file written,
// the view's path and recent list, the list again after a restart, a missing folder refused,
// and a recent project opened over unsaved changes only after the user said yes.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocket } from "ws";
import { otherProject, shopProject } from "../support/shared.ts";
import { killLeftovers, runScript, waitForOutput } from "../support/processes.ts";
import type { Run } from "../support/processes.ts";

afterEach(killLeftovers);

const LIMIT_MS = 20_000;
const SHOP = shopProject() as { id: string; name: string };
const OTHER = otherProject() as { id: string; name: string };

interface Seen {
  project: { id: string; name: string; unsaved: boolean; path: string | null } | null;
  recentProjects: string[];
  dialog: { kind: string; title: string } | null;
  logs: Array<{ level: string; message: string }>;
}

/** npm start with HOME in a fresh folder: its token, saves and recent list go under it. */
async function startIde(home: string): Promise<{ run: Run; host: string; token: string }> {
  const run = runScript("bin/start.ts", ["--port", "0"], { HOME: home });
  const [, pageUrl] = await waitForOutput(run, /IDE page\s+(\S+)/);
  const url = new URL(pageUrl);
  return { run, host: url.host, token: url.searchParams.get("token")! };
}

async function stop(run: Run) {
  run.child.kill("SIGINT");
  expect(await run.exited).toBe(0);
}

/** The IDE page's socket: what its updates show, and user events sent as the page sends them. */
async function uiPage(host: string, token: string) {
  const seen: Seen = { project: null, recentProjects: [], dialog: null, logs: [] };
  const socket = new WebSocket(`ws://${host}/ui?token=${token}`);
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as { type: string; view?: Seen; logs?: { entries: Seen["logs"] } };
    if (message.type !== "update") return;
    seen.project = message.view!.project;
    seen.recentProjects = message.view!.recentProjects;
    seen.dialog = message.view!.dialog;
    seen.logs.push(...(message.logs?.entries ?? []));
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  async function until(what: string, done: (seen: Seen) => boolean): Promise<Seen> {
    const started = Date.now();
    while (seen.project === null || !done(seen)) {
      if (Date.now() - started > LIMIT_MS) throw new Error(`the IDE page never showed ${what}: ${JSON.stringify(seen)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return seen;
  }
  return { seen, send: (event: Record<string, unknown>) => socket.send(JSON.stringify(event)), until, close: () => socket.close() };
}

describe("npm start: Save as and the recent list", () => {
  it("saves where the user says, remembers it across a restart, refuses a missing folder, and opens a recent project only after a yes", { timeout: 120_000 }, async () => {
    const home = mkdtempSync(join(tmpdir(), "ide-core-home-"));
    const projects = join(home, "projects");
    mkdirSync(projects);
    const target = join(projects, "my shop.side");

    // Save as into a folder the user chose.
    let ide = await startIde(home);
    let page = await uiPage(ide.host, ide.token);
    await page.until("the shop", (s) => s.project?.id === SHOP.id);
    page.send({ type: "user.editProject" });
    await page.until("unsaved changes", (s) => s.project!.unsaved);
    page.send({ type: "user.saveProject", path: target });
    let seen = await page.until("the project saved to its file", (s) => !s.project!.unsaved && s.project!.path === target);
    expect(seen.recentProjects).toEqual([target]);
    expect(seen.logs.some((l) => l.level === "info" && l.message === `Saved "${SHOP.name}" to ${target}`)).toBe(true);
    expect(JSON.parse(readFileSync(target, "utf8"))).toMatchObject({ id: SHOP.id, name: SHOP.name });
    expect(readdirSync(projects)).toEqual(["my shop.side"]); // nothing half-written beside it
    expect(existsSync(join(home, ".ide-core", "saved"))).toBe(false); // not the default place

    // A folder that does not exist: nothing written, the changes and the path kept.
    page.send({ type: "user.editProject" });
    await page.until("unsaved changes", (s) => s.project!.unsaved);
    const missing = join(home, "no such folder", "shop.side");
    page.send({ type: "user.saveProject", path: missing });
    seen = await page.until("an error", (s) => s.logs.some((l) => l.level === "error"));
    expect(seen.logs.find((l) => l.level === "error")!.message).toContain(`the folder ${join(home, "no such folder")} does not exist`);
    expect(seen.project).toMatchObject({ unsaved: true, path: target });
    expect(seen.recentProjects).toEqual([target]);
    expect(existsSync(join(home, "no such folder"))).toBe(false);
    page.close();
    await stop(ide.run);

    // A restart shows the recent list again; a recent project opens over unsaved changes only after a yes.
    const otherFile = join(projects, "other.side");
    writeFileSync(otherFile, JSON.stringify(otherProject()));
    expect(JSON.parse(readFileSync(join(home, ".ide-core", "recent.json"), "utf8"))).toEqual({ recentProjects: [target] });
    ide = await startIde(home);
    page = await uiPage(ide.host, ide.token);
    seen = await page.until("the recent list", (s) => s.recentProjects.length === 1);
    expect(seen.recentProjects).toEqual([target]);
    // The first start stopped with changes unsaved (the refused save): the journal offers them; the user drops them.
    await page.until("the restore dialog", (s) => s.dialog?.kind === "restoreUnsaved");
    page.send({ type: "user.decline" });
    seen = await page.until("no dialog", (s) => s.dialog === null);
    expect(seen.project).toMatchObject({ id: SHOP.id, path: null, unsaved: false });
    page.send({ type: "user.editProject" });
    await page.until("unsaved changes", (s) => s.project!.unsaved);
    page.send({ type: "user.openRecent", path: otherFile });
    seen = await page.until("the load dialog", (s) => s.dialog?.kind === "loadProject");
    expect(seen.dialog!.title).toContain(OTHER.name);
    expect(seen.project).toMatchObject({ id: SHOP.id, unsaved: true });
    page.send({ type: "user.accept" });
    seen = await page.until("the other project", (s) => s.project!.id === OTHER.id);
    expect(seen.project).toEqual({ id: OTHER.id, name: OTHER.name, unsaved: false, path: otherFile });
    expect(seen.recentProjects).toEqual([otherFile, target]);
    await page.until("nothing more", () => JSON.parse(readFileSync(join(home, ".ide-core", "recent.json"), "utf8")).recentProjects[0] === otherFile);
    page.close();
    await stop(ide.run);
  });

  it("reports a broken recent list and starts with an empty one", { timeout: 60_000 }, async () => {
    const home = mkdtempSync(join(tmpdir(), "ide-core-home-"));
    mkdirSync(join(home, ".ide-core"));
    writeFileSync(join(home, ".ide-core", "recent.json"), "{ not json");
    const ide = await startIde(home);
    const page = await uiPage(ide.host, ide.token);
    const seen = await page.until("the project", (s) => s.project !== null);
    expect(seen.recentProjects).toEqual([]);
    expect(ide.run.output()).toMatch(/The recent projects list .*recent\.json is not JSON/);
    page.close();
    await stop(ide.run);
  });
});
