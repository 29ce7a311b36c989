// The journal of unsaved changes (CONTRACT round 4): its format (services/journal), and how
// createIde writes it before an edit is acknowledged, clears it when nothing is unsaved any
// more, and offers what a start found as "Restore unsaved changes" (core/journal.ts).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileJournal, readJournalFile } from "../../apps/host/journal.ts";
import { JOURNAL_KEY, readStoredJournal, storageJournal } from "../../apps/extension/journal.ts";
import { WORKSPACE_KEY } from "../../apps/extension/workspace.ts";
import { createIde } from "../../index.ts";
import type { Ide, Journal, SideProject } from "../../index.ts";
import { isNewerThanSaved, journalText, journalValue, readJournal } from "../../services/journal/index.ts";
import { parseSideProject } from "../../services/side/index.ts";
import { isPending, register, request, settle, shopProject, otherProject } from "../protocol/support.ts";

const shop = (() => {
  const parsed = parseSideProject(shopProject());
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.project;
})();

const addCommand = (ide: Ide, command: string) => ide.handle(request("/record/command", "post", { command, target: "t" }), { id: "a" });
const commandsOf = (project: SideProject) => project.tests[0].commands.map((c) => c.command);

/** A journal that keeps what it was given; with `held`, each write waits until the test lets it go. */
function memoryJournal(found: Journal["found"] = null, held = false) {
  const writes: Array<SideProject | null> = [];
  const waiting: Array<() => void> = [];
  const journal: Journal = {
    found,
    write(project) {
      writes.push(project);
      if (!held) return;
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
  };
  return { journal, writes, release: () => waiting.splice(0).forEach((go) => go()), last: () => writes[writes.length - 1] };
}

describe("the journal's format", () => {
  it("reads back the project it was written with, and when", () => {
    const read = readJournal(journalText(JSON.stringify(shop), 1234));
    expect(read).toEqual({ ok: true, record: { writtenAt: 1234, project: shop } });
    expect(readJournal(journalValue(shop, 99))).toEqual({ ok: true, record: { writtenAt: 99, project: shop } });
  });

  it("refuses a cut-off, foreign or broken journal whole, naming the problem", () => {
    const text = journalText(JSON.stringify(shop), 1);
    const cut = readJournal(text.slice(0, text.length / 2));
    expect(cut).toMatchObject({ ok: false, problem: expect.stringContaining("not JSON") });
    expect(readJournal({ format: "other", version: 1, writtenAt: 1, project: shop })).toMatchObject({ ok: false, problem: expect.stringContaining("not a journal") });
    expect(readJournal(journalValue({ ...shop, tests: "none" } as unknown as SideProject, 1))).toMatchObject({
      ok: false,
      problem: expect.stringContaining("not a usable .side project"),
    });
  });

  it("is offered only when written after the saved project", () => {
    const record = { writtenAt: 2000, project: shop };
    expect(isNewerThanSaved(record, 1000)).toBe(true);
    expect(isNewerThanSaved(record, 2000)).toBe(false);
    expect(isNewerThanSaved(record, 0)).toBe(true);
  });
});

describe("createIde with a journal", () => {
  it("answers a plugin's edit only once the journal holds the project with it", async () => {
    const memory = memoryJournal(null, true);
    const ide = createIde({ project: shop, journal: memory.journal });
    await register(ide, "a");
    const reply = addCommand(ide, "first");
    await settle();
    expect(await isPending(reply)).toBe(true);
    expect(commandsOf(memory.last()!)).toContain("first");
    memory.release();
    expect(await reply).toBe(true);
  });

  it("shows the user's edit in the next view only once the journal holds it", async () => {
    const memory = memoryJournal(null, true);
    const ide = createIde({ project: shop, journal: memory.journal });
    const views: boolean[] = [];
    ide.subscribe((view) => views.push(view.project.unsaved));
    ide.send({ type: "user.addTest", name: "journaled" });
    await settle(20);
    expect(views).toEqual([]);
    expect(memory.last()!.tests.map((t) => t.name)).toContain("journaled");
    memory.release();
    await settle();
    expect(views).toEqual([true]);
  });

  it("writes the latest project after a slow write, not every one in between, and loses none", async () => {
    const memory = memoryJournal(null, true);
    const ide = createIde({ project: shop, journal: memory.journal });
    await register(ide, "a");
    const replies = Array.from({ length: 5 }, (_, i) => addCommand(ide, `c${i}`));
    await settle();
    expect(memory.writes.length).toBe(1);
    memory.release();
    await settle();
    memory.release();
    expect(await Promise.all(replies)).toEqual([true, true, true, true, true]);
    expect(commandsOf(memory.last()!).slice(-5)).toEqual(["c0", "c1", "c2", "c3", "c4"]);
  });

  it("clears the journal when the project is saved, and when the user says yes to loading over the changes", async () => {
    const memory = memoryJournal();
    const ide = createIde({ project: shop, journal: memory.journal });
    ide.send({ type: "user.addTest", name: "one" });
    expect(memory.last()).not.toBeNull();
    ide.send({ type: "user.saveProject" });
    await settle();
    expect(memory.last()).toBeNull();
    ide.send({ type: "user.addTest", name: "two" });
    expect(memory.last()).not.toBeNull();
    ide.send({ type: "user.loadProject", project: otherProject() });
    expect(ide.getSnapshot().dialog?.kind).toBe("loadProject");
    expect(memory.last()).not.toBeNull();
    ide.send({ type: "user.accept" });
    expect(memory.last()).toBeNull();
  });

  it("offers a journal found at start in the Restore unsaved changes dialog, and restores it unsaved on yes", async () => {
    const journaled = { ...shop, tests: [...shop.tests, { id: "t-new", name: "kept", commands: [] }] };
    const memory = memoryJournal({ project: journaled });
    const ide = createIde({ project: shop, journal: memory.journal });
    expect(ide.getSnapshot().dialog).toMatchObject({ kind: "restoreUnsaved", title: "Restore unsaved changes" });
    expect(ide.getProject()).toEqual(shop);
    // One dialog at a time: a plugin's alert waits its turn.
    await register(ide, "a");
    expect(await ide.handle(request("/popup/alert", "post", { message: "hi" }), { id: "a" })).toMatchObject({ errorCode: "Busy" });
    expect(memory.writes).toEqual([]);
    ide.send({ type: "user.accept" });
    expect(ide.getProject()).toEqual(journaled);
    expect(ide.getSavedProject()).toEqual(shop);
    expect(ide.getSnapshot().project.unsaved).toBe(true);
    expect(memory.last()).toEqual(journaled);
  });

  it("drops the journal when the user declines to restore it, keeping the saved project", () => {
    const memory = memoryJournal({ project: { ...shop, name: "edited" } });
    const ide = createIde({ project: shop, journal: memory.journal });
    ide.send({ type: "user.decline" });
    expect(ide.getSnapshot().dialog).toBeNull();
    expect(ide.getProject()).toEqual(shop);
    expect(ide.getSnapshot().project.unsaved).toBe(false);
    expect(memory.writes).toEqual([null]);
  });

  it("logs an error naming a journal that could not be read, and applies nothing of it", () => {
    const memory = memoryJournal({ problem: "The journal /x/journal.json could not be read; it was moved aside to /x/aside." });
    const ide = createIde({ project: shop, journal: memory.journal });
    expect(ide.getSnapshot().dialog).toBeNull();
    expect(ide.getProject()).toEqual(shop);
    expect(ide.getSnapshot().logs).toContainEqual(expect.objectContaining({ level: "error", message: expect.stringContaining("/x/aside") }));
  });

  it("logs once that the journal cannot be written, and keeps the edits", async () => {
    const ide = createIde({
      project: shop,
      journal: {
        write() {
          throw new Error("disk full");
        },
      },
    });
    ide.send({ type: "user.addTest", name: "one" });
    ide.send({ type: "user.addTest", name: "two" });
    const errors = ide.getSnapshot().logs.filter((l) => l.level === "error");
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining("disk full")]);
    expect(ide.getProject().tests.map((t) => t.name)).toEqual([...shop.tests.map((t) => t.name), "one", "two"]);
  });
});

describe("the host's journal file", () => {
  const scratch = () => join(mkdtempSync(join(tmpdir(), "ide-core-journal-")), "journal.json");

  it("reads back exactly the project after any mix of edits, appended or written whole", async () => {
    const path = scratch();
    const ide = createIde({ project: shop, journal: fileJournal(path, 0), limits: { requestsPerSecond: 1e9, requestBurst: 1e9 } });
    await register(ide, "a");
    for (let i = 0; i < 300; i++) {
      const roll = Math.random();
      const ids = ide.getProject().tests[0].commands.map((c) => c.id);
      const id = ids[Math.floor(Math.random() * ids.length)];
      if (roll < 0.5) await addCommand(ide, `add ${i}`);
      else if (roll < 0.7 && id) await ide.handle(request("/record/command", "put", { id, value: `v${i}` }), { id: "a" });
      else if (roll < 0.85 && id) await ide.handle(request("/record/command", "delete", { id }), { id: "a" });
      else if (roll < 0.95) ide.send({ type: "user.selectCommand", commandId: id ?? null });
      else ide.send({ type: "user.addTest", name: `test ${i}` });
    }
    ide.send({ type: "user.addTest", name: "last" });
    for (let i = 0; i < 3; i++) await addCommand(ide, `appended ${i}`);
    const text = readFileSync(path, "utf8");
    // The new test was written whole, then each command appended as a line of its own.
    expect(text.trimEnd().split("\n").length).toBe(4);
    const read = readJournal(text);
    expect(read.ok && read.record.project).toEqual(ide.getProject());
  });

  it("finds a journal with a change cut off unreadable, moves it aside and offers nothing of it", () => {
    const path = scratch();
    const journal = fileJournal(path, 0);
    journal.write(shop);
    journal.write({ ...shop, tests: [{ ...shop.tests[0], commands: [...shop.tests[0].commands, { id: "n", command: "echo", target: "", value: "" }] }, ...shop.tests.slice(1)] });
    const text = readFileSync(path, "utf8");
    writeFileSync(path, text.slice(0, text.length - 10));
    const found = readJournalFile(path, 0, 42);
    expect(found).toEqual({ problem: expect.stringContaining(`${path}.unreadable-42`) });
    expect(existsSync(path)).toBe(false);
    expect(readFileSync(`${path}.unreadable-42`, "utf8")).toBe(text.slice(0, text.length - 10));
  });

  it("does not offer a journal older than the saved project, and moves it aside", () => {
    const path = scratch();
    fileJournal(path, 0).write(shop);
    const found = readJournalFile(path, Date.now() + 60_000, 7);
    expect(found).toEqual({ problem: expect.stringContaining(`${path}.older-7`) });
    expect(fileJournal(`${path}.older-7`, 0).found).toEqual({ project: shop });
  });
});

describe("the extension's journal in chrome.storage.local", () => {
  function storage(initial: Record<string, unknown> = {}) {
    const data = new Map(Object.entries(initial));
    return {
      data,
      get: async (key: string) => (data.has(key) ? { [key]: structuredClone(data.get(key)) } : {}),
      set: async (items: Record<string, unknown>) => void Object.entries(items).forEach(([k, v]) => data.set(k, structuredClone(v))),
    };
  }

  it("offers what it wrote when it is newer than the saved project, and forgets it on null", async () => {
    const store = storage();
    const journal = storageJournal(store, null);
    await journal.write(shop);
    expect(await readStoredJournal(store, 0)).toEqual({ project: shop });
    await journal.write(null);
    expect(await readStoredJournal(store, 0)).toBeNull();
  });

  it("keeps the saved project in the workspace in the same write that forgets the journal", async () => {
    const store = storage();
    const other = { ...shop, id: "other", name: "Other" };
    const journal = storageJournal(store, null, () => other);
    await journal.write(shop);
    expect(store.data.has(WORKSPACE_KEY)).toBe(false);
    await journal.write(null);
    expect(store.data.get(JOURNAL_KEY)).toBeNull();
    expect(store.data.get(WORKSPACE_KEY)).toEqual({ project: other, unsaved: false, savedAt: expect.any(Number) });
  });

  it("moves an unreadable journal aside to a key it names, and offers nothing of it", async () => {
    const broken = { format: "ide-core.journal", version: 1, writtenAt: 5, project: { id: "x" } };
    const store = storage({ [JOURNAL_KEY]: broken });
    const found = await readStoredJournal(store, 0, 77);
    expect(found).toEqual({ problem: expect.stringContaining('"journal.unreadable-77"') });
    expect(store.data.get("journal.unreadable-77")).toEqual(broken);
    expect(store.data.get(JOURNAL_KEY)).toBeNull();
  });

  it("does not offer a journal older than the saved project, and keeps it aside", async () => {
    const store = storage({ [JOURNAL_KEY]: journalValue(shop, 10) });
    expect(await readStoredJournal(store, 20, 3)).toEqual({ problem: expect.stringContaining('"journal.older-3"') });
    expect(store.data.get("journal.older-3")).toEqual(journalValue(shop, 10));
  });
});
