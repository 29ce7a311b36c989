// The UI's transport for a page that embeds the IDE itself (drivers/view/localTransport.ts): connected
// at once, fed by a relay in the same page, and silent once closed.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createIde } from "../../index.ts";
import type { Ide } from "../../index.ts";
import { UPDATE_INTERVAL_MS } from "../../drivers/view/relay.ts";
import type { ConnectionStatus } from "../../ui/connection.ts";
import { localTransport } from "../../drivers/view/localTransport.ts";
import type { HostMessage } from "../../drivers/view/messages.ts";

function recordingHandlers() {
  const messages: HostMessage[] = [];
  const statuses: ConnectionStatus[] = [];
  return { messages, statuses, message: (m: HostMessage) => messages.push(m), status: (s: ConnectionStatus) => statuses.push(s) };
}

let ide: Ide;
beforeEach(() => {
  vi.useFakeTimers();
  ide = createIde();
});
afterEach(() => {
  ide.stop();
  vi.useRealTimers();
});

describe("localTransport", () => {
  it("is connected at once and delivers hello then an update", () => {
    const handlers = recordingHandlers();
    localTransport(ide).connect(handlers);
    expect(handlers.statuses).toEqual(["connected"]);
    expect(handlers.messages.map((m) => m.type)).toEqual(["hello", "update"]);
  });

  it("delivers an update when the IDE changes", async () => {
    const handlers = recordingHandlers();
    localTransport(ide).connect(handlers);
    ide.send({ type: "user.editProject" });
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS + 1);
    expect(handlers.messages).toHaveLength(3);
    const update = handlers.messages[2];
    expect(update.type === "update" && update.view.project.unsaved).toBe(true);
  });

  it("hands the page's user events to the IDE", () => {
    const connection = localTransport(ide).connect(recordingHandlers());
    expect(ide.getSnapshot().project.unsaved).toBe(false);
    connection.send({ type: "user.editProject" });
    expect(ide.getSnapshot().project.unsaved).toBe(true);
  });

  it("delivers nothing more after close, however the IDE changes", async () => {
    const handlers = recordingHandlers();
    const connection = localTransport(ide).connect(handlers);
    connection.close();
    ide.send({ type: "user.editProject" });
    await ide.handle({ uri: "/log", verb: "post", message: "after close" }, { id: "p" });
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS * 4);
    expect(handlers.messages).toHaveLength(2);
    expect(handlers.statuses).toEqual(["connected"]);
  });
});
