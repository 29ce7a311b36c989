// The limits of CONTRACT section 7 as a plugin meets them: PayloadTooLarge and RateLimited.
import { describe, expect, it } from "vitest";
import { createIde, expectError, FORMS, logsOf, register, request, shopProject } from "./support.ts";

const KIB = 1024;
const x = (bytes: number) => "x".repeat(bytes);

describe("request size (requestBytes)", () => {
  it.each(FORMS)("refuses a request over requestBytes (%s form), naming the limit", async (form) => {
    const ide = createIde({ limits: { requestBytes: 300 } });
    const error = expectError(await ide.handle(request("/log", "post", { message: x(400) }, form), { id: "a" }), "PayloadTooLarge");
    expect(error).toContain("requestBytes");
    expect(logsOf(ide)).toEqual([]);
  });

  it("accepts a request under requestBytes", async () => {
    const ide = createIde({ limits: { requestBytes: 300 } });
    expect(await ide.handle({ uri: "/log", verb: "post", message: x(100) }, { id: "a" })).toBe(true);
  });

  it("counts UTF-8 bytes, not characters", async () => {
    // 150 two-byte characters are 300 bytes: with the envelope, over a limit of 300.
    const ide = createIde({ limits: { requestBytes: 300 } });
    expectError(await ide.handle({ uri: "/log", verb: "post", message: "é".repeat(150) }, { id: "a" }), "PayloadTooLarge");
    expect(await ide.handle({ uri: "/log", verb: "post", message: "e".repeat(150) }, { id: "a" })).toBe(true);
  });

  it("counts the bytes of fields the route ignores", async () => {
    const ide = createIde({ limits: { requestBytes: 300 } });
    expectError(await ide.handle({ uri: "/health", verb: "get", padding: x(400) }, { id: "a" }), "PayloadTooLarge");
  });

  it("refuses a registration over requestBytes and registers nothing", async () => {
    const ide = createIde({ limits: { requestBytes: 500 } });
    const commands = Array.from({ length: 30 }, (_, i) => ({ id: `command-${i}`, name: `Command ${i}` }));
    expectError(await ide.handle({ uri: "/register", verb: "post", name: "A", version: "1", commands }, { id: "a" }), "PayloadTooLarge");
    expect(ide.getSnapshot().plugins).toEqual([]);
  });

  it("holds a default of 1 MiB", async () => {
    const ide = createIde();
    expectError(await ide.handle({ uri: "/health", verb: "get", padding: x(1024 * KIB + 1) }, { id: "a" }), "PayloadTooLarge");
    expect(await ide.handle({ uri: "/health", verb: "get", padding: x(1000 * KIB) }, { id: "a" })).toBe(false);
  });
});

describe("project size (projectRequestBytes)", () => {
  it.each(FORMS)("refuses POST /project over projectRequestBytes (%s form), naming the limit", async (form) => {
    const ide = createIde({ limits: { projectRequestBytes: 1000 } });
    await register(ide, "a");
    const before = ide.getSnapshot().project;
    const error = expectError(
      await ide.handle(request("/project", "post", { project: shopProject() }, form), { id: "a" }),
      "PayloadTooLarge",
    );
    expect(error).toContain("projectRequestBytes");
    expect(ide.getSnapshot().project).toEqual(before);
  });

  it("holds POST /project to projectRequestBytes, not requestBytes", async () => {
    // The shop project is a few KiB: over requestBytes, under projectRequestBytes.
    const ide = createIde({ limits: { requestBytes: 1000, projectRequestBytes: 100 * KIB } });
    await register(ide, "a");
    expect(await ide.handle({ uri: "/project", verb: "post", project: shopProject() }, { id: "a" })).toBe(true);
    expect(ide.getSnapshot().project.name).toBe("Shop checkout");
    // Other routes keep requestBytes.
    expectError(await ide.handle({ uri: "/log", verb: "post", message: x(2000) }, { id: "a" }), "PayloadTooLarge");
  });

  it("loads a project of 2 MiB with the default limits", async () => {
    const ide = createIde();
    await register(ide, "a");
    const project = shopProject() as { tests: Array<{ commands: Array<{ value: string }> }> };
    project.tests[0].commands[0].value = x(2 * 1024 * KIB);
    expect(await ide.handle({ uri: "/project", verb: "post", project }, { id: "a" })).toBe(true);
    expect(ide.getSnapshot().project.name).toBe("Shop checkout");
  });
});

describe("log message size (logMessageBytes)", () => {
  const routes = [
    ["/log", {}],
    ["/playback/log", {}],
    ["/playback/command", { commandId: "c-open", state: "failed" }],
  ] as const;

  for (const [uri, rest] of routes) {
    it.each(FORMS)(`refuses a 70 KiB message on POST ${uri} (%s form), naming logMessageBytes`, async (form) => {
      const ide = createIde({ project: shopProject() });
      ide.send({ type: "user.startPlayback" });
      const error = expectError(
        await ide.handle(request(uri, "post", { ...rest, message: x(70 * KIB) }, form), { id: "a" }),
        "PayloadTooLarge",
      );
      expect(error).toContain("logMessageBytes");
      expect(logsOf(ide)).toEqual([]);
      expect(ide.getSnapshot().playback?.commands.every((c) => c.state === null)).toBe(true);
    });

    it(`accepts a message of exactly 64 KiB on POST ${uri}`, async () => {
      const ide = createIde({ project: shopProject() });
      ide.send({ type: "user.startPlayback" });
      expect(await ide.handle({ uri, verb: "post", ...rest, message: x(64 * KIB) }, { id: "a" })).toBe(true);
    });
  }

  it("counts a log message's UTF-8 bytes, not its characters", async () => {
    const ide = createIde();
    // 32,768 two-byte characters are exactly 64 KiB; one more is over.
    expect(await ide.handle({ uri: "/log", verb: "post", message: "é".repeat(32 * KIB) }, { id: "a" })).toBe(true);
    expectError(await ide.handle({ uri: "/log", verb: "post", message: "é".repeat(32 * KIB + 1) }, { id: "a" }), "PayloadTooLarge");
  });

  it("follows a smaller logMessageBytes from the options", async () => {
    const ide = createIde({ limits: { logMessageBytes: 10 } });
    expect(await ide.handle({ uri: "/log", verb: "post", message: x(10) }, { id: "a" })).toBe(true);
    const error = expectError(await ide.handle({ uri: "/playback/log", verb: "post", message: x(11) }, { id: "a" }), "PayloadTooLarge");
    expect(error).toContain("logMessageBytes");
  });
});

describe("rate limit (requestsPerSecond, requestBurst)", () => {
  const limits = { requestsPerSecond: 0.001, requestBurst: 3 };

  it("answers RateLimited once a sender spent its burst", async () => {
    const ide = createIde({ limits });
    for (let i = 0; i < 3; i++) expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "a" })).toBe(false);
    expectError(await ide.handle({ uri: "/health", verb: "get" }, { id: "a" }), "RateLimited");
    expectError(await ide.handle({ uri: "/log", verb: "post", message: "m" }, { id: "a" }), "RateLimited");
    expect(logsOf(ide)).toEqual([]);
  });

  it("does not limit another sender", async () => {
    const ide = createIde({ limits });
    for (let i = 0; i < 3; i++) await ide.handle({ uri: "/health", verb: "get" }, { id: "a" });
    expectError(await ide.handle({ uri: "/health", verb: "get" }, { id: "a" }), "RateLimited");
    for (let i = 0; i < 3; i++) expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "b" })).toBe(false);
  });

  it("takes the identity from the sender argument, not a sender field in the message", async () => {
    const ide = createIde({ limits });
    for (let i = 0; i < 3; i++) await ide.handle({ uri: "/health", verb: "get", sender: `s${i}` }, { id: "a" });
    expectError(await ide.handle({ uri: "/health", verb: "get", sender: "fresh" }, { id: "a" }), "RateLimited");
  });

  it("refills a sender's budget over time", async () => {
    const ide = createIde({ limits: { requestsPerSecond: 100, requestBurst: 1 } });
    expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "a" })).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "a" })).toBe(false);
  });

  it("serves a normal conversation within the default limits", async () => {
    const ide = createIde();
    for (let i = 0; i < 500; i++) {
      expect(await ide.handle({ uri: "/log", verb: "post", message: `m${i}` }, { id: "a" })).toBe(true);
    }
  });
});
