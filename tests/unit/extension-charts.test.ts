// The IDE window's statecharts (apps/extension/charts.ts): the page's transport brings
// the core's charts and states, and the window adds its door, live, and the background relay,
// highlighted `present` exactly while the door answers. A fake transport stands in for the
// core's view relay.
import { describe, expect, it, vi } from "vitest";
import { extensionCharts, withCharts } from "../../apps/extension/charts.ts";
import { WindowDoor } from "../../apps/extension/door.ts";
import type { HostMessage } from "../../drivers/view/messages.ts";
import type { UiTransport, UiTransportHandlers } from "../../ui/connection.ts";

type Update = Extract<HostMessage, { type: "update" }>;

const update = (states: Update["states"], entries: Update["logs"]["entries"] = []): Update => ({
  type: "update",
  view: { window: "open" } as unknown as Update["view"],
  logs: { reset: true, entries, kept: { system: entries.length, playback: 0 } },
  states,
});

function setup() {
  let core: UiTransportHandlers | null = null;
  const close = vi.fn();
  const transport: UiTransport = {
    connect(handlers) {
      core = handlers;
      return { send: vi.fn(), close };
    },
  };
  const door = new WindowDoor(async () => true);
  const page: HostMessage[] = [];
  const connection = withCharts(transport, extensionCharts(door)).connect({
    message: (message) => page.push(message),
    status: vi.fn(),
  });
  const updates = () => page.filter((m): m is Update => m.type === "update");
  return { core: () => core!, door, page, updates, connection, close };
}

describe("the IDE window's statecharts", () => {
  it("adds the door's and the relay's charts after the core's in hello", () => {
    const { core, page } = setup();
    core().message({ type: "hello", charts: [] });
    expect(page).toHaveLength(1);
    const hello = page[0] as Extract<HostMessage, { type: "hello" }>;
    expect(hello.charts.map((c) => c.actor)).toEqual(["windowDoor", "backgroundRelay"]);
    expect(hello.charts[1].root.states.map((s) => s.key)).toEqual(["starting", "absent", "awaiting", "present"]);
  });

  it("adds the door's state to the core's in every update, and the relay's only while the door answers", () => {
    const { core, door, updates } = setup();
    core().message(update({ ide: "open" }));
    expect(updates().at(-1)!.states).toEqual({ ide: "open", windowDoor: "holding" });
    door.goLive([]);
    core().message(update({ ide: "closed" }));
    expect(updates().at(-1)!.states).toEqual({ ide: "closed", windowDoor: "answering", backgroundRelay: "present" });
  });

  it("sends an update of its own when only the door moved, with the core as the page last had it and no new log entries", () => {
    const { core, door, updates } = setup();
    door.goLive([]);
    expect(updates()).toEqual([]); // nothing to update before the core's first update
    const first = update({ ide: "open" }, [{ id: "1", group: "system" } as Update["logs"]["entries"][number]]);
    core().message(first);
    door.pause();
    expect(updates()).toHaveLength(2);
    expect(updates()[1]).toEqual({
      type: "update",
      view: first.view,
      logs: { reset: false, entries: [], kept: first.logs.kept },
      states: { ide: "open", windowDoor: "holding" },
    });
    // A request held changes the door's context, not its state: nothing to send.
    door.receive({ uri: "/health", verb: "get" }, "plugin-a", vi.fn());
    expect(updates()).toHaveLength(2);
  });

  it("passes the editor's locator questions on to the transport it wraps", async () => {
    const resolveLocator = vi.fn(async (location: string) => `//input[@id='${location.slice(3)}']`);
    const transport: UiTransport = { connect: () => ({ send: vi.fn(), close: vi.fn() }), resolveLocator };
    const charted = withCharts(transport, extensionCharts(new WindowDoor(async () => true)));
    expect(await charted.resolveLocator?.("id=user")).toBe("//input[@id='user']");
    expect(resolveLocator).toHaveBeenCalledWith("id=user");
  });

  it("stops sending when the page closes its connection", () => {
    const { core, door, updates, connection, close } = setup();
    core().message(update({ ide: "open" }));
    connection.close();
    expect(close).toHaveBeenCalledTimes(1);
    door.goLive([]);
    expect(updates()).toHaveLength(1);
  });
});
