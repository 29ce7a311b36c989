// The bridge against random and hostile frames on a real socket: every frame gets exactly
// one answer (a reply for a request, an error frame for anything unreadable), the
// connection stays open and usable, and nothing a frame says changes who the sender is.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readPluginFrame } from "../../drivers/bridge/frames.ts";
import { startHost } from "../../apps/host/host.ts";
import type { Host } from "../../apps/host/host.ts";
import { connectRaw } from "../bridge/support.ts";
import type { RawPlugin } from "../bridge/support.ts";
import { runs, timeoutFor } from "./arbitraries.ts";

/** Frames a plugin might send by mistake or on purpose; the request ids are unique per run. */
const hostileFrame = fc.oneof(
  fc.string(),
  fc.json(),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.record({ type: fc.constantFrom("request", "response", "reply", "event", "error", "hello"), id: fc.jsonValue(), message: fc.jsonValue() }).map((f) => JSON.stringify(f)),
  fc.record({ type: fc.constant("request"), message: fc.jsonValue(), sender: fc.string() }).map((f) => JSON.stringify(f)),
);

describe("the bridge's frame reader", () => {
  it("reads any text without throwing, and names a problem for everything that is not a frame", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        const reading = readPluginFrame(text);
        if (!reading.ok) expect(reading.problem.length).toBeGreaterThan(0);
        else expect(["request", "response"]).toContain(reading.frame.type);
      }),
      { numRuns: runs },
    );
  });
});

describe("the bridge under random frames", () => {
  let host: Host;
  let plugin: RawPlugin;

  beforeAll(async () => {
    host = await startHost({ port: 0, tokenFile: null, limits: { requestsPerSecond: 1e9, requestBurst: 1e9 } });
    plugin = await connectRaw(host, "ext-fuzzed");
  });

  afterAll(async () => {
    await plugin.close();
    await host.close();
  });

  it(
    "answers every frame once, keeps the connection usable, and never takes a sender from a frame",
    async () => {
      let sequence = 0;
      await fc.assert(
        fc.asyncProperty(hostileFrame, async (text) => {
          const reading = readPluginFrame(text);
          // A readable request with an id of its own is answered by a reply; give it a fresh id so
          // no two requests in the run share one (a shared id in flight is its own error case).
          const sent =
            reading.ok && reading.frame.type === "request"
              ? JSON.stringify({ ...reading.frame, id: `fuzz-${++sequence}` })
              : text;
          plugin.send(sent);
          const answer = await plugin.next();
          if (reading.ok && reading.frame.type === "request") {
            expect(answer).toMatchObject({ type: "reply", id: `fuzz-${sequence}` });
          } else {
            expect(answer).toMatchObject({ type: "error", errorCode: "InvalidFrame" });
            expect(typeof answer.error).toBe("string");
          }
          expect(plugin.socket.readyState).toBe(plugin.socket.OPEN);
        }),
        { numRuns: Math.min(runs, 300) },
      );
      expect(await plugin.request({ uri: "/health", verb: "get" })).toBeTypeOf("boolean");
      const senders = new Set(host.ide.getSnapshot().logs.filter((l) => l.source !== "ide").map((l) => l.source));
      expect([...senders].every((s) => s === "ext-fuzzed")).toBe(true);
      expect(host.ide.getSnapshot().plugins.every((p) => p.id === "ext-fuzzed")).toBe(true);
    },
    timeoutFor(20),
  );
});
