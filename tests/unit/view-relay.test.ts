// The relay between createIde() and one UI page (adapters/view/relay.ts), through a sink that
// records what the page would get: hello first, then updates that carry only what changed,
// and user events back to the IDE, whatever form they arrive in.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createIde } from "../../index.ts";
import type { Ide } from "../../index.ts";
import { UPDATE_INTERVAL_MS, ViewRelay, helloMessage } from "../../adapters/view/relay.ts";
import type { RelaySink } from "../../adapters/view/relay.ts";
import type { HostMessage } from "../../ui/protocol.ts";

type Update = Extract<HostMessage, { type: "update" }>;

function recordingSink(extra: Partial<RelaySink> = {}): RelaySink & { messages: HostMessage[] } {
  const messages: HostMessage[] = [];
  return { messages, send: (message) => messages.push(message), ...extra };
}

const postLog = (ide: Ide, message: string) => ide.handle({ uri: "/log", verb: "post", message }, { id: "p" });
const unsaved = (ide: Ide) => ide.getSnapshot().project.unsaved;

let ide: Ide;
beforeEach(() => {
  vi.useFakeTimers();
  ide = createIde();
});
afterEach(() => {
  ide.stop();
  vi.useRealTimers();
});

describe("ViewRelay", () => {
  it("sends hello with every machine's chart, then an update whose log is a reset", () => {
    const sink = recordingSink();
    new ViewRelay(ide, sink);
    expect(sink.messages.map((m) => m.type)).toEqual(["hello", "update"]);
    expect(sink.messages[0]).toEqual(helloMessage(ide));
    const update = sink.messages[1] as Update;
    expect(update.logs.reset).toBe(true);
    expect(update.logs.entries).toEqual(ide.getSnapshot().logs);
    expect(update.view.project).toEqual(ide.getSnapshot().project);
  });

  it("sends the hello it is given instead of building one", () => {
    const sink = recordingSink();
    const hello: HostMessage = { type: "hello", charts: [] };
    new ViewRelay(ide, sink, { hello });
    expect(sink.messages[0]).toBe(hello);
  });

  it("sends a later update with only the new log entry and no reset", async () => {
    await postLog(ide, "seen");
    const sink = recordingSink();
    new ViewRelay(ide, sink);
    expect((sink.messages[1] as Update).logs.entries.map((e) => e.message)).toEqual(["seen"]);
    const before = (sink.messages[1] as Update).logs.entries.length;
    await postLog(ide, "x");
    expect(sink.messages).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS + 1);
    expect(sink.messages).toHaveLength(3);
    const update = sink.messages[2] as Update;
    expect(update.type).toBe("update");
    expect(update.logs.reset).toBe(false);
    expect(update.logs.entries.map((e) => e.message)).toEqual(["x"]);
    expect(update.logs.kept.system + update.logs.kept.playback).toBe(before + 1);
  });

  it("folds a burst of changes into one update", async () => {
    const sink = recordingSink();
    new ViewRelay(ide, sink);
    await postLog(ide, "a");
    await postLog(ide, "b");
    await postLog(ide, "c");
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS + 1);
    expect(sink.messages).toHaveLength(3);
    expect((sink.messages[2] as Update).logs.entries.map((e) => e.message)).toEqual(["a", "b", "c"]);
  });

  it("holds updates back while the sink is backlogged and sends them when it drains", async () => {
    let backlogged = true;
    const sink = recordingSink({ backlogged: () => backlogged });
    new ViewRelay(ide, sink);
    await postLog(ide, "x");
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS * 4);
    expect(sink.messages).toHaveLength(2);
    backlogged = false;
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS + 1);
    expect(sink.messages).toHaveLength(3);
    expect((sink.messages[2] as Update).logs.entries.map((e) => e.message)).toEqual(["x"]);
  });

  it("passes a user event object to the IDE", () => {
    const relay = new ViewRelay(ide, recordingSink());
    expect(unsaved(ide)).toBe(false);
    relay.receive({ type: "user.editProject" });
    expect(unsaved(ide)).toBe(true);
  });

  it("passes a user event given as JSON text to the IDE", () => {
    const relay = new ViewRelay(ide, recordingSink());
    relay.receive('{"type":"user.editProject"}');
    expect(unsaved(ide)).toBe(true);
  });

  it("ignores events that are not user events, and text that is not JSON", () => {
    const sent = vi.spyOn(ide, "send");
    const relay = new ViewRelay(ide, recordingSink());
    const before = ide.getSnapshot();
    for (const event of [{ type: "notUser" }, "not json", '"user.editProject"', ["user.editProject"], null, 42, { type: 1 }]) {
      relay.receive(event);
    }
    expect(sent).not.toHaveBeenCalled();
    expect(ide.getSnapshot()).toBe(before);
    expect(unsaved(ide)).toBe(false);
  });

  it("sends nothing after stop, however the IDE changes, and tells onGone once", async () => {
    const sink = recordingSink();
    const onGone = vi.fn();
    const relay = new ViewRelay(ide, sink, { onGone });
    await postLog(ide, "before stop");
    relay.stop();
    relay.stop();
    await postLog(ide, "after stop");
    relay.flush();
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS * 4);
    expect(sink.messages).toHaveLength(2);
    expect(onGone).toHaveBeenCalledTimes(1);
    expect(onGone).toHaveBeenCalledWith(relay);
  });

  it("takes no user events after stop", () => {
    const relay = new ViewRelay(ide, recordingSink());
    relay.stop();
    relay.receive({ type: "user.editProject" });
    expect(unsaved(ide)).toBe(false);
  });

  it("sends nothing to a sink that is not open", async () => {
    const sink = recordingSink({ isOpen: () => false });
    const relay = new ViewRelay(ide, sink);
    await postLog(ide, "x");
    relay.flush();
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS * 4);
    expect(sink.messages).toEqual([]);
  });

  it("never changes a message after sending it", async () => {
    const sink = recordingSink();
    new ViewRelay(ide, sink);
    const first = structuredClone(sink.messages);
    await postLog(ide, "x");
    ide.send({ type: "user.editProject" });
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS + 1);
    expect(sink.messages).toHaveLength(3);
    expect(sink.messages.slice(0, 2)).toEqual(first);
  });
});
