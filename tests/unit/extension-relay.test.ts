// The background worker's relay (apps/extension/relay.ts) without the chrome API: a real
// closed core answers while no window is open, and fakes stand in for opening a window, asking
// whether one exists, and the window's port. Each request must be answered exactly once, by the
// closed core, by the window through a forwarded request, or with IdeNotActive when the window
// never comes or goes away.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createIde } from "../../index.ts";
import type { Ide } from "../../index.ts";
import { requestKey } from "../../drivers/webextension/messages.ts";
import type { ToWindow } from "../../drivers/webextension/messages.ts";
import { BackgroundRelay } from "../../apps/extension/relay.ts";
import type { Respond, WindowPort } from "../../apps/extension/relay.ts";

interface FakePort extends WindowPort {
  posted: ToWindow[];
  focused: number;
}

function fakePort(): FakePort {
  const port: FakePort = {
    posted: [],
    focused: 0,
    post: (message) => {
      port.posted.push(message);
    },
    focus: () => {
      port.focused += 1;
    },
  };
  return port;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

interface SetupOptions {
  /** What windowExists answers: a value, or a promise the test settles. */
  exists?: boolean | Promise<boolean>;
  openWindow?: () => Promise<void>;
  connectTimeoutMs?: number;
}

const relays: BackgroundRelay[] = [];
const cores: Ide[] = [];

function setup(options: SetupOptions = {}) {
  const made: Ide[] = [];
  const createClosedIde = vi.fn(() => {
    const ide = createIde({ window: "closed" });
    made.push(ide);
    cores.push(ide);
    return ide;
  });
  const openWindow = vi.fn(options.openWindow ?? (() => Promise.resolve()));
  const windowExists = vi.fn(() =>
    options.exists instanceof Promise ? options.exists : Promise.resolve(options.exists ?? false),
  );
  const relay = new BackgroundRelay({
    createClosedIde,
    openWindow,
    windowExists,
    connectTimeoutMs: options.connectTimeoutMs ?? 60_000,
  });
  relays.push(relay);
  return { relay, made, createClosedIde, openWindow, windowExists };
}

/** A relay whose start() found no window. */
async function absentRelay(options: SetupOptions = {}) {
  const parts = setup(options);
  await parts.relay.start();
  expect(parts.relay.state).toBe("absent");
  return parts;
}

/** Lets the closed core's replies (promises) and openWindow's settling run. */
// The IDE tells its subscribers on the turn after a change (setImmediate), which a 0 ms timer may
// come before or after: a timer then an immediate waits for both, whatever the machine's load.
const flush = () => new Promise<void>((resolve) => setTimeout(() => setImmediate(resolve), 0));

const respondSpy = () => vi.fn<Respond>();
const errorCodeOf = (respond: ReturnType<typeof respondSpy>) =>
  (respond.mock.calls[0]?.[0] as { errorCode?: string } | undefined)?.errorCode;
const requestsPosted = (port: FakePort) =>
  port.posted.filter((m): m is Extract<ToWindow, { type: "request" }> => m.type === "request");

const health = { uri: "/health", verb: "get" };
const openRequest = { openIDEIfClosed: true };
const control = { uri: "/control", verb: "post", name: "P", version: "1" };

afterEach(() => {
  // A relay left waiting for a window still has its connect timer running: a window
  // connecting clears it.
  for (const relay of relays.splice(0)) if (relay.state === "awaiting") relay.connected(fakePort());
  for (const core of cores.splice(0)) core.stop();
});

describe("BackgroundRelay while starting", () => {
  it("queues requests until start() finds no window, then gives them the closed core's answers", async () => {
    const { relay, openWindow, windowExists } = setup();
    const answers = [respondSpy(), respondSpy(), respondSpy()];
    expect(relay.state).toBe("starting");
    expect(relay.receive(health, "plugin-a", answers[0])).toBe(true);
    expect(relay.receive(42, "plugin-a", answers[1])).toBe(true);
    expect(relay.receive({ uri: "/nowhere", verb: "get" }, "plugin-a", answers[2])).toBe(true);
    await flush();
    for (const respond of answers) expect(respond).not.toHaveBeenCalled();

    await relay.start();
    await flush();
    expect(relay.state).toBe("absent");
    expect(windowExists).toHaveBeenCalledTimes(1);
    expect(answers.map(errorCodeOf)).toEqual(["IdeNotActive", "InvalidRequest", "NoRoute"]);
    for (const respond of answers) expect(respond).toHaveBeenCalledTimes(1);
    expect(openWindow).not.toHaveBeenCalled();
  });

  it("treats a windowExists that rejects as no window", async () => {
    const { relay } = setup({ exists: Promise.reject(new Error("no tabs API")) });
    await relay.start();
    expect(relay.state).toBe("absent");
  });

  it("answers queued requests made before an opening one, and holds the ones after it for the window", async () => {
    const { relay, openWindow } = setup();
    const before = respondSpy();
    const opening = respondSpy();
    const after = respondSpy();
    relay.receive(health, "plugin-a", before);
    relay.receive(openRequest, "plugin-b", opening);
    relay.receive({ uri: "/log", verb: "post", message: "hi" }, "plugin-c", after);

    await relay.start();
    await flush();
    expect(relay.state).toBe("awaiting");
    expect(openWindow).toHaveBeenCalledTimes(1);
    expect(errorCodeOf(before)).toBe("IdeNotActive");
    expect(opening).not.toHaveBeenCalled();
    expect(after).not.toHaveBeenCalled();

    const port = fakePort();
    relay.connected(port);
    expect(requestsPosted(port).map((m) => m.senderId)).toEqual(["plugin-b", "plugin-c"]);
    expect(port.posted.at(-1)).toEqual({
      type: "live",
      forwarded: [
        requestKey("plugin-b", openRequest),
        requestKey("plugin-c", { uri: "/log", verb: "post", message: "hi" }),
      ],
    });
  });

  it("waits for the window start() finds and forwards the queue to it when it connects", async () => {
    const { relay, openWindow } = setup({ exists: true });
    const first = respondSpy();
    const second = respondSpy();
    relay.receive(health, "plugin-a", first);
    relay.receive(control, "plugin-b", second);

    await relay.start();
    await flush();
    expect(relay.state).toBe("awaiting");
    expect(openWindow).not.toHaveBeenCalled();
    expect(first).not.toHaveBeenCalled();
    expect(second).not.toHaveBeenCalled();

    const port = fakePort();
    relay.connected(port);
    expect(relay.state).toBe("present");
    expect(port.posted).toEqual([
      { type: "request", id: expect.any(Number), senderId: "plugin-a", message: health },
      { type: "request", id: expect.any(Number), senderId: "plugin-b", message: control },
      { type: "live", forwarded: [requestKey("plugin-a", health), requestKey("plugin-b", control)] },
    ]);
    const [toFirst, toSecond] = requestsPosted(port);
    relay.fromWindow(port, { type: "reply", id: toSecond.id, reply: true });
    relay.fromWindow(port, { type: "reply", id: toFirst.id, reply: false });
    expect(second).toHaveBeenCalledExactlyOnceWith(true);
    expect(first).toHaveBeenCalledExactlyOnceWith(false);
  });

  it("keeps a window that connected before start() finished looking", async () => {
    const exists = deferred<boolean>();
    const { relay } = setup({ exists: exists.promise });
    const respond = respondSpy();
    relay.receive(health, "plugin-a", respond);
    const starting = relay.start();

    const port = fakePort();
    relay.connected(port);
    expect(relay.state).toBe("present");
    expect(requestsPosted(port).map((m) => m.message)).toEqual([health]);

    exists.resolve(false);
    await starting;
    await flush();
    expect(relay.state).toBe("present");
    expect(respond).not.toHaveBeenCalled();
  });
});

describe("BackgroundRelay while no window is open", () => {
  it("answers a plain request with IdeNotActive and opens nothing", async () => {
    const { relay, openWindow } = await absentRelay();
    const respond = respondSpy();
    expect(relay.receive(health, "plugin-a", respond)).toBe(true);
    await flush();
    expect(respond).toHaveBeenCalledTimes(1);
    expect(errorCodeOf(respond)).toBe("IdeNotActive");
    expect(openWindow).not.toHaveBeenCalled();
    expect(relay.state).toBe("absent");
  });

  it.each([
    ["an open request", () => openRequest],
    ["a valid POST /control", () => control],
  ])("opens the window for %s and answers it only through the window that connects", async (_, request) => {
    const message = request();
    const { relay, openWindow } = await absentRelay();
    const respond = respondSpy();
    expect(relay.receive(message, "plugin-a", respond)).toBe(true);
    expect(openWindow).toHaveBeenCalledTimes(1);
    expect(relay.state).toBe("awaiting");
    await flush();
    expect(respond).not.toHaveBeenCalled();

    const port = fakePort();
    relay.connected(port);
    expect(port.posted).toEqual([
      { type: "request", id: expect.any(Number), senderId: "plugin-a", message },
      { type: "live", forwarded: [requestKey("plugin-a", message)] },
    ]);
    await flush();
    expect(respond).not.toHaveBeenCalled();

    relay.fromWindow(port, { type: "reply", id: requestsPosted(port)[0].id, reply: true });
    expect(respond).toHaveBeenCalledExactlyOnceWith(true);
  });

  it("forwards every opening request in the order received and answers each through its own id", async () => {
    const { relay, openWindow } = await absentRelay();
    const byOpen = respondSpy();
    const byControl = respondSpy();
    relay.receive(openRequest, "plugin-a", byOpen);
    relay.receive(control, "plugin-b", byControl);
    expect(openWindow).toHaveBeenCalledTimes(1);

    const port = fakePort();
    relay.connected(port);
    expect(port.posted.map((m) => m.type)).toEqual(["request", "request", "live"]);
    expect(port.posted.at(-1)).toEqual({
      type: "live",
      forwarded: [requestKey("plugin-a", openRequest), requestKey("plugin-b", control)],
    });
    const [toOpen, toControl] = requestsPosted(port);
    expect(toOpen.id).not.toBe(toControl.id);

    relay.fromWindow(port, { type: "reply", id: toControl.id, reply: false });
    expect(byControl).toHaveBeenCalledExactlyOnceWith(false);
    expect(byOpen).not.toHaveBeenCalled();
    relay.fromWindow(port, { type: "reply", id: toOpen.id, reply: true });
    expect(byOpen).toHaveBeenCalledExactlyOnceWith(true);
  });

  it("answers an invalid POST /control with InvalidRequest and opens nothing", async () => {
    const { relay, openWindow, createClosedIde } = await absentRelay();
    const respond = respondSpy();
    relay.receive({ ...control, name: "" }, "plugin-a", respond);
    await flush();
    expect(errorCodeOf(respond)).toBe("InvalidRequest");
    expect(openWindow).not.toHaveBeenCalled();
    expect(createClosedIde).toHaveBeenCalledTimes(1);
    expect(relay.state).toBe("absent");
  });

  it("replaces the closed core an opening request spent with a new closed one", async () => {
    const { relay, made, createClosedIde } = await absentRelay();
    expect(createClosedIde).toHaveBeenCalledTimes(1);
    relay.receive(openRequest, "plugin-a", respondSpy());
    expect(createClosedIde).toHaveBeenCalledTimes(2);
    expect(made[0].actor.getSnapshot().status).toBe("stopped");
    expect(made[1].getSnapshot().window).toBe("closed");

    const port = fakePort();
    relay.connected(port);
    relay.disconnected(port);
    const respond = respondSpy();
    relay.receive(health, "plugin-a", respond);
    await flush();
    expect(errorCodeOf(respond)).toBe("IdeNotActive");
  });
});

describe("BackgroundRelay while a window is opening", () => {
  it("does not open a second window for another opening request, and queues plain ones", async () => {
    const { relay, openWindow } = await absentRelay();
    relay.receive(openRequest, "plugin-a", respondSpy());
    const plain = respondSpy();
    expect(relay.receive(control, "plugin-b", respondSpy())).toBe(true);
    expect(relay.receive({ openIDEIfClosed: true }, "plugin-c", respondSpy())).toBe(true);
    expect(relay.receive(health, "plugin-d", plain)).toBe(true);
    await flush();
    expect(openWindow).toHaveBeenCalledTimes(1);
    expect(plain).not.toHaveBeenCalled();

    const port = fakePort();
    relay.connected(port);
    expect(requestsPosted(port).map((m) => m.senderId)).toEqual(["plugin-a", "plugin-b", "plugin-c", "plugin-d"]);
  });

  it("answers the queue with IdeNotActive naming the failure when the window cannot be opened", async () => {
    const { relay, openWindow } = await absentRelay({
      openWindow: () => Promise.reject(new Error("no display to open on")),
    });
    const opening = respondSpy();
    const queued = respondSpy();
    relay.receive(control, "plugin-a", opening);
    relay.receive(health, "plugin-b", queued);
    await flush();
    expect(relay.state).toBe("absent");
    for (const respond of [opening, queued]) {
      expect(respond).toHaveBeenCalledTimes(1);
      const reply = respond.mock.calls[0][0] as { error: string; errorCode: string };
      expect(reply.errorCode).toBe("IdeNotActive");
      expect(reply.error).toContain("no display to open on");
    }

    relay.receive(openRequest, "plugin-a", respondSpy());
    expect(openWindow).toHaveBeenCalledTimes(2);
  });

  it("gives up on a window that never connects after connectTimeoutMs", async () => {
    vi.useFakeTimers();
    try {
      const { relay } = await absentRelay({ connectTimeoutMs: 1000 });
      const opening = respondSpy();
      const queued = respondSpy();
      relay.receive(openRequest, "plugin-a", opening);
      relay.receive(health, "plugin-b", queued);
      await vi.advanceTimersByTimeAsync(999);
      expect(relay.state).toBe("awaiting");
      expect(opening).not.toHaveBeenCalled();

      await vi.advanceTimersByTimeAsync(1);
      expect(relay.state).toBe("absent");
      for (const respond of [opening, queued]) {
        expect(respond).toHaveBeenCalledTimes(1);
        expect(errorCodeOf(respond)).toBe("IdeNotActive");
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not give up on a window that connected in time", async () => {
    vi.useFakeTimers();
    try {
      const { relay } = await absentRelay({ connectTimeoutMs: 1000 });
      const respond = respondSpy();
      relay.receive(openRequest, "plugin-a", respond);
      const port = fakePort();
      await vi.advanceTimersByTimeAsync(500);
      relay.connected(port);
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(5000);
      expect(relay.state).toBe("present");
      expect(respond).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
  it("stays with a window that connected even if openWindow fails afterwards", async () => {
    const opening = deferred<void>();
    const { relay } = await absentRelay({ openWindow: () => opening.promise });
    const respond = respondSpy();
    relay.receive(openRequest, "plugin-a", respond);
    const port = fakePort();
    relay.connected(port);

    opening.reject(new Error("late failure"));
    await flush();
    expect(relay.state).toBe("present");
    expect(respond).not.toHaveBeenCalled();
    relay.fromWindow(port, { type: "reply", id: requestsPosted(port)[0].id, reply: true });
    expect(respond).toHaveBeenCalledExactlyOnceWith(true);
  });
});

describe("BackgroundRelay while a window is present", () => {
  async function presentRelay() {
    const parts = await absentRelay();
    const port = fakePort();
    parts.relay.receive(openRequest, "plugin-a", respondSpy());
    parts.relay.connected(port);
    expect(parts.relay.state).toBe("present");
    return { ...parts, port };
  }

  it("leaves every request to the window and answers none itself", async () => {
    const { relay, openWindow, port } = await presentRelay();
    const plain = respondSpy();
    const opening = respondSpy();
    const posts = port.posted.length;
    expect(relay.receive(health, "plugin-b", plain)).toBe(false);
    expect(relay.receive(control, "plugin-c", opening)).toBe(false);
    await flush();
    expect(plain).not.toHaveBeenCalled();
    expect(opening).not.toHaveBeenCalled();
    expect(openWindow).toHaveBeenCalledTimes(1);
    expect(port.posted).toHaveLength(posts);
  });

  it("answers forwarded requests still waiting with IdeNotActive when the window goes, and ignores a late reply", async () => {
    const { relay } = await absentRelay();
    const answered = respondSpy();
    const waiting = respondSpy();
    relay.receive(openRequest, "plugin-a", answered);
    relay.receive(control, "plugin-b", waiting);
    const port = fakePort();
    relay.connected(port);
    const [toAnswered, toWaiting] = requestsPosted(port);
    relay.fromWindow(port, { type: "reply", id: toAnswered.id, reply: true });

    relay.disconnected(port);
    expect(relay.state).toBe("absent");
    expect(answered).toHaveBeenCalledExactlyOnceWith(true);
    expect(waiting).toHaveBeenCalledTimes(1);
    expect(errorCodeOf(waiting)).toBe("IdeNotActive");

    relay.fromWindow(port, { type: "reply", id: toWaiting.id, reply: true });
    expect(waiting).toHaveBeenCalledTimes(1);
  });

  it("answers as a closed IDE again once the window has gone", async () => {
    const { relay, openWindow, port } = await presentRelay();
    relay.disconnected(port);
    const plain = respondSpy();
    relay.receive(health, "plugin-a", plain);
    await flush();
    expect(errorCodeOf(plain)).toBe("IdeNotActive");
    relay.receive(openRequest, "plugin-a", respondSpy());
    expect(openWindow).toHaveBeenCalledTimes(2);
    expect(relay.state).toBe("awaiting");
  });

  it("tells a second window it is a duplicate and brings the first to the front", async () => {
    const { relay, port } = await presentRelay();
    const second = fakePort();
    relay.connected(second);
    expect(second.posted).toEqual([{ type: "duplicate" }]);
    expect(port.focused).toBe(1);
    expect(second.focused).toBe(0);

    relay.disconnected(second);
    expect(relay.state).toBe("present");
    expect(relay.receive(health, "plugin-a", respondSpy())).toBe(false);
  });

  it("ignores replies from another port, replies to unknown ids, and messages that are not replies", async () => {
    const { relay } = await absentRelay();
    const respond = respondSpy();
    relay.receive(control, "plugin-a", respond);
    const port = fakePort();
    relay.connected(port);
    const id = requestsPosted(port)[0].id;

    const stranger = fakePort();
    relay.connected(stranger);
    relay.fromWindow(stranger, { type: "reply", id, reply: "from the duplicate" });
    relay.fromWindow(port, { type: "reply", id: id + 1000, reply: "unknown id" });
    relay.fromWindow(port, { type: "keepAlive" });
    relay.fromWindow(port, { type: "reply", id: String(id), reply: "id as text" });
    relay.fromWindow(port, null);
    expect(respond).not.toHaveBeenCalled();

    relay.fromWindow(port, { type: "reply", id, reply: true });
    relay.fromWindow(port, { type: "reply", id, reply: "again" });
    expect(respond).toHaveBeenCalledExactlyOnceWith(true);
  });
});

describe("BackgroundRelay's toolbar button", () => {
  it("opens a window while none is open", async () => {
    const { relay, openWindow } = await absentRelay();
    relay.showWindow();
    expect(openWindow).toHaveBeenCalledTimes(1);
    expect(relay.state).toBe("awaiting");
  });

  it("brings the open window to the front instead of opening another", async () => {
    const { relay, openWindow } = await absentRelay();
    relay.showWindow();
    const port = fakePort();
    relay.connected(port);
    relay.showWindow();
    expect(port.focused).toBe(1);
    expect(openWindow).toHaveBeenCalledTimes(1);
  });

  it("pressed while starting, opens a window once start() finds none, and the queue waits for it", async () => {
    const { relay, openWindow } = setup();
    relay.showWindow();
    const queued = respondSpy();
    relay.receive(health, "plugin-a", queued);
    expect(openWindow).not.toHaveBeenCalled();

    await relay.start();
    await flush();
    expect(openWindow).toHaveBeenCalledTimes(1);
    expect(relay.state).toBe("awaiting");
    expect(queued).not.toHaveBeenCalled();

    const port = fakePort();
    relay.connected(port);
    expect(port.posted).toEqual([
      { type: "request", id: expect.any(Number), senderId: "plugin-a", message: health },
      { type: "live", forwarded: [requestKey("plugin-a", health)] },
    ]);
  });

  it("pressed while starting, opens no second window when start() finds one", async () => {
    const { relay, openWindow } = setup({ exists: true });
    relay.showWindow();
    await relay.start();
    await flush();
    expect(openWindow).not.toHaveBeenCalled();
    expect(relay.state).toBe("awaiting");
  });

  it("pressed while starting, brings the window start() found to the front once it connects", async () => {
    const { relay } = setup({ exists: true });
    relay.showWindow();
    await relay.start();
    await flush();
    const port = fakePort();
    relay.connected(port);
    expect(port.focused).toBe(1);
    // Only that press: a later reconnection is not brought forward again.
    relay.disconnected(port);
    const next = fakePort();
    relay.connected(next);
    expect(next.focused).toBe(0);
  });
});

describe("BackgroundRelay's senders", () => {
  it("forwards a request under the sender given to receive, passing a sender field in the message through", async () => {
    const { relay } = await absentRelay();
    const message = { ...control, sender: "someone-else" };
    relay.receive(message, "plugin-real", respondSpy());
    const port = fakePort();
    relay.connected(port);
    expect(port.posted).toEqual([
      { type: "request", id: expect.any(Number), senderId: "plugin-real", message },
      { type: "live", forwarded: [requestKey("plugin-real", message)] },
    ]);
    expect(requestsPosted(port)[0].message).toEqual({ ...control, sender: "someone-else" });
  });

  it("asks the closed core under the sender given to receive", async () => {
    const { relay, made } = await absentRelay();
    const handle = vi.spyOn(made[0], "handle");
    const message = { ...health, sender: "someone-else" };
    relay.receive(message, "plugin-real", respondSpy());
    expect(handle).toHaveBeenCalledExactlyOnceWith(message, { id: "plugin-real" });
  });
});
