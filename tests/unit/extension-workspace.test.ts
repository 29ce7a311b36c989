// What the extension keeps across IDE windows (apps/extension/workspace.ts): the saved
// project and since when, written to storage whenever it changes and read back when a window
// starts (the unsaved changes are the journal's: journal.test.ts). An in-memory storage stands in for chrome.storage.local; it keeps copies, as
// the real one does, and lets a test hold a write open to see what comes next.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createIde } from "../../index.ts";
import type { Ide } from "../../index.ts";
import {
  WORKSPACE_KEY,
  keepWorkspace,
  loadWorkspace,
  restoreUnsaved,
} from "../../apps/extension/workspace.ts";
import type { Workspace, WorkspaceStorage } from "../../apps/extension/workspace.ts";

const shop: unknown = JSON.parse(readFileSync(new URL("../../examples/shop.side", import.meta.url), "utf8"));
const shopId = (shop as { id: string }).id;
const shopName = (shop as { name: string }).name;

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

interface MemoryStorage extends WorkspaceStorage {
  data: Map<string, unknown>;
  /** Every workspace set() was asked to write, in order. */
  writes: Workspace[];
  /** The most set() calls unfinished at once. */
  mostAtOnce: number;
  /** Finishes the oldest set() still open (only when the storage holds writes). */
  release(): void;
}

interface StorageOptions {
  /** set() stays open until release(). */
  hold?: boolean;
  setFails?: unknown;
  getFails?: unknown;
}

function memoryStorage(options: StorageOptions = {}): MemoryStorage {
  const open: Array<() => void> = [];
  let active = 0;
  const storage: MemoryStorage = {
    data: new Map(),
    writes: [],
    mostAtOnce: 0,
    release: () => open.shift()?.(),
    async get(key) {
      if (options.getFails !== undefined) throw options.getFails;
      return storage.data.has(key) ? { [key]: copy(storage.data.get(key)) } : {};
    },
    async set(items) {
      active += 1;
      storage.mostAtOnce = Math.max(storage.mostAtOnce, active);
      storage.writes.push(copy(items[WORKSPACE_KEY]) as Workspace);
      try {
        if (options.hold) await new Promise<void>((resolve) => open.push(resolve));
        if (options.setFails !== undefined) throw options.setFails;
        for (const [key, value] of Object.entries(items)) storage.data.set(key, copy(value));
      } finally {
        active -= 1;
      }
    },
  };
  return storage;
}

// The IDE tells its subscribers on the turn after a change (setImmediate), which a 0 ms timer may
// come before or after: a timer then an immediate waits for both, whatever the machine's load.
const flush = () => new Promise<void>((resolve) => setTimeout(() => setImmediate(resolve), 0));
const noError = () => {
  throw new Error("no write was expected to fail");
};

const ides: Ide[] = [];
function ideFor(options: Parameters<typeof createIde>[0] = {}): Ide {
  const ide = createIde(options);
  ides.push(ide);
  return ide;
}
afterEach(() => {
  for (const ide of ides.splice(0)) ide.stop();
});

async function loadShop(ide: Ide): Promise<void> {
  expect(await ide.handle({ uri: "/register", verb: "post", name: "P", version: "1" }, { id: "plugin-a" })).toBe(true);
  expect(await ide.handle({ uri: "/project", verb: "post", project: shop }, { id: "plugin-a" })).toBe(true);
}

describe("loadWorkspace", () => {
  it("finds nothing and no problem when nothing was kept", async () => {
    expect(await loadWorkspace(memoryStorage())).toEqual({ workspace: null, problem: null });
  });

  it("gives back a kept usable project with its unsaved flag", async () => {
    const storage = memoryStorage();
    storage.data.set(WORKSPACE_KEY, { project: shop, unsaved: true });
    const { workspace, problem } = await loadWorkspace(storage);
    expect(problem).toBeNull();
    expect(workspace?.unsaved).toBe(true);
    expect(workspace?.project.id).toBe(shopId);
    expect(workspace?.project.name).toBe(shopName);
    expect(workspace?.project.tests.map((t) => t.id)).toEqual((shop as { tests: Array<{ id: string }> }).tests.map((t) => t.id));
  });

  it("reads an unsaved flag that is not exactly true as saved", async () => {
    const storage = memoryStorage();
    storage.data.set(WORKSPACE_KEY, { project: shop, unsaved: "yes" });
    expect((await loadWorkspace(storage)).workspace?.unsaved).toBe(false);
    storage.data.set(WORKSPACE_KEY, { project: shop });
    expect((await loadWorkspace(storage)).workspace?.unsaved).toBe(false);
  });

  it("refuses a kept project that is not usable, with a sentence naming its problem", async () => {
    const storage = memoryStorage();
    storage.data.set(WORKSPACE_KEY, { project: { name: "no id", tests: [] }, unsaved: true });
    const { workspace, problem } = await loadWorkspace(storage);
    expect(workspace).toBeNull();
    expect(problem).toContain("not a usable .side project");
    expect(problem).toContain("id is missing");
  });

  it("refuses a kept value that is not a workspace at all", async () => {
    const storage = memoryStorage();
    storage.data.set(WORKSPACE_KEY, "garbage");
    const { workspace, problem } = await loadWorkspace(storage);
    expect(workspace).toBeNull();
    expect(problem).toContain("project is missing");
  });

  it("reports a storage that cannot be read as a problem naming the reason", async () => {
    const { workspace, problem } = await loadWorkspace(memoryStorage({ getFails: new Error("storage is gone") }));
    expect(workspace).toBeNull();
    expect(problem).toContain("could not be read");
    expect(problem).toContain("storage is gone");
  });

  it("names the reason when the storage rejects with something that is not an Error", async () => {
    const { workspace, problem } = await loadWorkspace(memoryStorage({ getFails: "storage is gone" }));
    expect(workspace).toBeNull();
    expect(problem).toContain("storage is gone");
  });
});

describe("keepWorkspace", () => {
  it("writes the workspace at once, before any change", async () => {
    const ide = ideFor();
    const storage = memoryStorage();
    keepWorkspace(ide, storage, noError);
    expect(storage.writes).toHaveLength(1);
    await flush();
    const kept = storage.data.get(WORKSPACE_KEY) as Workspace;
    expect(kept.unsaved).toBe(false);
    expect(kept.project.id).toBe(ide.getSnapshot().project.id);
    expect(kept.project.name).toBe(ide.getSnapshot().project.name);
  });

  it("does not write the user's edits, which the journal keeps, and writes the saved project again after a save", async () => {
    const ide = ideFor({ project: shop });
    const storage = memoryStorage();
    keepWorkspace(ide, storage, noError, 1234);
    await flush();
    ide.send({ type: "user.addTest", name: "edited" });
    await flush();
    expect(storage.writes.map((w) => [w.project.id, w.project.tests.length, w.savedAt])).toEqual([[shopId, (shop as { tests: unknown[] }).tests.length, 1234]]);
    const before = Date.now();
    ide.send({ type: "user.saveProject" });
    await flush();
    await flush();
    expect(storage.writes).toHaveLength(2);
    expect(storage.writes[1].project).toEqual(ide.getProject());
    expect(storage.writes[1].unsaved).toBe(false);
    expect(storage.writes[1].savedAt).toBeGreaterThanOrEqual(before);
  });

  it("writes the new project after a plugin loads one", async () => {
    const ide = ideFor();
    const storage = memoryStorage();
    keepWorkspace(ide, storage, noError);
    await flush();
    await loadShop(ide);
    await flush();
    const kept = storage.data.get(WORKSPACE_KEY) as Workspace;
    expect(kept.project.id).toBe(shopId);
    expect(kept.project.name).toBe(shopName);
    expect(kept.unsaved).toBe(false);
  });

  it("does not write when nothing it keeps changed", async () => {
    const ide = ideFor({ project: shop });
    const storage = memoryStorage();
    keepWorkspace(ide, storage, noError);
    await flush();
    expect(await ide.handle({ uri: "/log", verb: "post", message: "a log is not the project" }, { id: "plugin-a" })).toBe(true);
    expect(ide.getSnapshot().logs.map((entry) => entry.message)).toContain("a log is not the project");
    await flush();
    expect(storage.writes).toHaveLength(1);
  });

  it("writes one at a time, in order, and writes only the latest state next", async () => {
    const ide = ideFor();
    const storage = memoryStorage({ hold: true });
    keepWorkspace(ide, storage, noError);
    await loadShop(ide);
    await flush();
    expect(await ide.handle({ uri: "/project", verb: "post", project: { ...(shop as object), id: "other", name: "Other" } }, { id: "plugin-a" })).toBe(true);
    await flush();
    expect(storage.writes).toHaveLength(1);

    storage.release();
    await flush();
    expect(storage.writes).toHaveLength(2);
    storage.release();
    await flush();
    expect(storage.writes[0].project.id).not.toBe(shopId);
    expect(storage.writes[1].project.id).toBe("other");
    expect(storage.mostAtOnce).toBe(1);
    expect((storage.data.get(WORKSPACE_KEY) as Workspace).project.id).toBe("other");
  });

  it("tells onError why a write failed and still writes the next change", async () => {
    const ide = ideFor({ project: shop });
    const storage = memoryStorage({ setFails: new Error("quota exceeded") });
    const onError = vi.fn();
    keepWorkspace(ide, storage, onError);
    await flush();
    expect(onError).toHaveBeenCalledExactlyOnceWith("quota exceeded");

    await loadShop(ide);
    await flush();
    expect(storage.writes).toHaveLength(2);
    expect(onError).toHaveBeenCalledTimes(2);
  });

  it("writes nothing more after stop", async () => {
    const ide = ideFor({ project: shop });
    const storage = memoryStorage();
    const keeping = keepWorkspace(ide, storage, noError);
    await flush();
    keeping.stop();
    await loadShop(ide);
    ide.send({ type: "user.editProject" });
    await flush();
    expect(storage.writes).toHaveLength(1);
    expect((storage.data.get(WORKSPACE_KEY) as Workspace).unsaved).toBe(false);
  });

  it("keeps what loadWorkspace reads back as the same saved project, since the same time", async () => {
    const ide = ideFor({ project: shop });
    const storage = memoryStorage();
    keepWorkspace(ide, storage, noError, 99);
    ide.send({ type: "user.editProject" });
    await flush();
    const { workspace, problem } = await loadWorkspace(storage);
    expect(problem).toBeNull();
    expect(workspace).toEqual({ project: copy(ide.getSavedProject()), unsaved: false, savedAt: 99 });
  });
});

describe("restoreUnsaved", () => {
  it("marks a core started from a kept unsaved workspace as unsaved", async () => {
    const storage = memoryStorage();
    storage.data.set(WORKSPACE_KEY, { project: shop, unsaved: true });
    const { workspace } = await loadWorkspace(storage);
    const ide = ideFor({ project: workspace?.project });
    expect(ide.getSnapshot().project.unsaved).toBe(false);
    restoreUnsaved(ide, workspace);
    expect(ide.getSnapshot().project.unsaved).toBe(true);
    expect(ide.getSnapshot().project.id).toBe(shopId);
  });

  it("leaves a core started from a kept saved workspace saved", async () => {
    const storage = memoryStorage();
    storage.data.set(WORKSPACE_KEY, { project: shop, unsaved: false });
    const { workspace } = await loadWorkspace(storage);
    const ide = ideFor({ project: workspace?.project });
    restoreUnsaved(ide, workspace);
    expect(ide.getSnapshot().project.unsaved).toBe(false);
  });

  it("leaves a new core saved when nothing was kept", () => {
    const ide = ideFor();
    restoreUnsaved(ide, null);
    expect(ide.getSnapshot().project.unsaved).toBe(false);
  });
});
