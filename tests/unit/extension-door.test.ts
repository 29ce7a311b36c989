// The IDE window's door (apps/extension/door.ts): it holds plugin requests until the
// background says `live`, then answers the ones the background did not forward and drops the
// ones it did, so each request is answered once. A fake `answer` stands in for the window's core.
import { describe, expect, it, vi } from "vitest";
import { WindowDoor } from "../../apps/extension/door.ts";
import { requestKey } from "../../drivers/webextension/messages.ts";
import type { Respond } from "../../apps/extension/relay.ts";
import type { WireReply } from "../../core/protocol/wire.ts";

function fakeAnswer() {
  return vi.fn((message: unknown, senderId: string): Promise<WireReply> =>
    Promise.resolve({ answered: message, by: senderId }),
  );
}

// The IDE tells its subscribers on the turn after a change (setImmediate), which a 0 ms timer may
// come before or after: a timer then an immediate waits for both, whatever the machine's load.
const flush = () => new Promise<void>((resolve) => setTimeout(() => setImmediate(resolve), 0));
const respondSpy = () => vi.fn<Respond>();

const health = { uri: "/health", verb: "get" };
const log = { uri: "/log", verb: "post", message: "hello" };

describe("WindowDoor", () => {
  it("holds requests before goLive and answers none of them", async () => {
    const answer = fakeAnswer();
    const door = new WindowDoor(answer);
    const respond = respondSpy();
    expect(door.live).toBe(false);
    expect(door.receive(health, "plugin-a", respond)).toBe(true);
    await flush();
    expect(answer).not.toHaveBeenCalled();
    expect(respond).not.toHaveBeenCalled();
  });

  it("answers held requests the background did not forward and drops the ones it did", async () => {
    const answer = fakeAnswer();
    const door = new WindowDoor(answer);
    const forwardedOne = respondSpy();
    const keptOne = respondSpy();
    const keptTwo = respondSpy();
    door.receive(health, "plugin-a", forwardedOne);
    door.receive(log, "plugin-a", keptOne);
    door.receive(health, "plugin-b", keptTwo);

    door.goLive([requestKey("plugin-a", health)]);
    expect(door.live).toBe(true);
    await flush();
    expect(answer.mock.calls).toEqual([
      [log, "plugin-a"],
      [health, "plugin-b"],
    ]);
    expect(forwardedOne).not.toHaveBeenCalled();
    expect(keptOne).toHaveBeenCalledExactlyOnceWith({ answered: log, by: "plugin-a" });
    expect(keptTwo).toHaveBeenCalledExactlyOnceWith({ answered: health, by: "plugin-b" });
  });

  it("drops only as many equal requests from one sender as were forwarded", async () => {
    const answer = fakeAnswer();
    const door = new WindowDoor(answer);
    const first = respondSpy();
    const second = respondSpy();
    door.receive(health, "plugin-a", first);
    door.receive({ ...health }, "plugin-a", second);

    door.goLive([requestKey("plugin-a", health)]);
    await flush();
    expect(answer).toHaveBeenCalledTimes(1);
    expect(first.mock.calls.length + second.mock.calls.length).toBe(1);
  });

  it("drops every equal request when each was forwarded", async () => {
    const answer = fakeAnswer();
    const door = new WindowDoor(answer);
    const first = respondSpy();
    const second = respondSpy();
    door.receive(health, "plugin-a", first);
    door.receive(health, "plugin-a", second);

    door.goLive([requestKey("plugin-a", health), requestKey("plugin-a", health)]);
    await flush();
    expect(answer).not.toHaveBeenCalled();
    expect(first).not.toHaveBeenCalled();
    expect(second).not.toHaveBeenCalled();
  });

  it("does not let a forwarded key with no held copy swallow a later request", async () => {
    const answer = fakeAnswer();
    const door = new WindowDoor(answer);
    door.goLive([requestKey("plugin-a", health)]);
    const respond = respondSpy();
    door.receive(health, "plugin-a", respond);
    await flush();
    expect(respond).toHaveBeenCalledExactlyOnceWith({ answered: health, by: "plugin-a" });
  });

  it("answers requests at once after goLive", async () => {
    const answer = fakeAnswer();
    const door = new WindowDoor(answer);
    door.goLive([]);
    const respond = respondSpy();
    expect(door.receive(log, "plugin-a", respond)).toBe(true);
    expect(answer).toHaveBeenCalledExactlyOnceWith(log, "plugin-a");
    await flush();
    expect(respond).toHaveBeenCalledExactlyOnceWith({ answered: log, by: "plugin-a" });
  });

  it("holds again after pause until the next goLive", async () => {
    const answer = fakeAnswer();
    const door = new WindowDoor(answer);
    door.goLive([]);
    door.pause();
    expect(door.live).toBe(false);
    const forwarded = respondSpy();
    const kept = respondSpy();
    door.receive(health, "plugin-a", forwarded);
    door.receive(log, "plugin-a", kept);
    await flush();
    expect(answer).not.toHaveBeenCalled();

    door.goLive([requestKey("plugin-a", health)]);
    await flush();
    expect(answer).toHaveBeenCalledExactlyOnceWith(log, "plugin-a");
    expect(forwarded).not.toHaveBeenCalled();
    expect(kept).toHaveBeenCalledTimes(1);
  });

  it("answers a released request once, whatever pauses, goLive or abandon follow", async () => {
    const answer = fakeAnswer();
    const door = new WindowDoor(answer);
    const respond = respondSpy();
    door.receive(health, "plugin-a", respond);
    door.goLive([]);
    door.pause();
    door.goLive([]);
    door.abandon({ error: "The IDE window was closed.", errorCode: "IdeNotActive" });
    await flush();
    expect(answer).toHaveBeenCalledTimes(1);
    expect(respond).toHaveBeenCalledExactlyOnceWith({ answered: health, by: "plugin-a" });
  });

  it("answers everything held with the reply given to abandon, and nothing more after", async () => {
    const answer = fakeAnswer();
    const door = new WindowDoor(answer);
    const first = respondSpy();
    const second = respondSpy();
    door.receive(health, "plugin-a", first);
    door.receive(log, "plugin-b", second);
    const closed = { error: "The IDE window was closed.", errorCode: "IdeNotActive" };

    door.abandon(closed);
    expect(first).toHaveBeenCalledExactlyOnceWith(closed);
    expect(second).toHaveBeenCalledExactlyOnceWith(closed);

    door.goLive([]);
    door.abandon({ error: "again", errorCode: "IdeNotActive" });
    await flush();
    expect(answer).not.toHaveBeenCalled();
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
  });

  it("does not confuse the same message from different senders", async () => {
    const answer = fakeAnswer();
    const door = new WindowDoor(answer);
    const fromA = respondSpy();
    const fromB = respondSpy();
    door.receive(health, "plugin-a", fromA);
    door.receive(health, "plugin-b", fromB);

    door.goLive([requestKey("plugin-b", health)]);
    await flush();
    expect(answer).toHaveBeenCalledExactlyOnceWith(health, "plugin-a");
    expect(fromA).toHaveBeenCalledExactlyOnceWith({ answered: health, by: "plugin-a" });
    expect(fromB).not.toHaveBeenCalled();
  });

  it("answers under the sender it was given, not one named in the message", async () => {
    const answer = fakeAnswer();
    const door = new WindowDoor(answer);
    const message = { ...health, sender: "someone-else" };
    door.receive(message, "plugin-a", respondSpy());
    door.goLive([requestKey("someone-else", health), requestKey("someone-else", message)]);
    expect(answer).toHaveBeenCalledExactlyOnceWith(message, "plugin-a");
  });
});
