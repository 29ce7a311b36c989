// The offline inspector (`npm start -- --inspect-log FILE`): the whole actor system, as the
// live inspector would receive it, written as JSON lines.
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIde } from "../../index.ts";
import { fileInspector } from "../../drivers/inspect.ts";

describe("the inspection log", () => {
  it("records every machine of the IDE and the events sent to them, one JSON object per line", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "ide-core-inspect-")), "inspect.jsonl");
    const inspector = fileInspector(file);
    const ide = createIde({ inspect: inspector.inspect });
    const asked = ide.handle({ uri: "/control", verb: "post", name: "Watcher", version: "1" }, { id: "watcher" });
    await expect.poll(() => ide.getSnapshot().dialog?.kind).toBe("controlConsent");
    ide.send({ type: "user.decline" });
    expect(await asked).toBe(false);
    ide.stop();
    await inspector.stop();

    const events = readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    const actors = events.filter((e) => e.type === "@xstate.actor").map((e) => e.name);
    expect(actors).toEqual(expect.arrayContaining(["ide", "control", "projectFile", "editor", "suiteRunner"]));
    const sent = events.filter((e) => e.type === "@xstate.event").map((e) => (e.event as { type: string }).type);
    expect(sent).toEqual(expect.arrayContaining(["request.control", "user.decline"]));
    const snapshots = events.filter((e) => e.type === "@xstate.snapshot");
    expect(snapshots.length).toBeGreaterThan(0);
  });
});
