import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LogStore, splitLinks } from "../../services/logs/index.ts";
import type { LogGroup, LogLevel } from "../../services/logs/index.ts";

const entry = (group: LogGroup, message: string, level: LogLevel = "info") => ({ group, level, message, source: "ide", at: 0 });

describe("LogStore", () => {
  it("returns the appended entry with a unique id and the given fields", () => {
    const store = new LogStore(5);
    const a = store.append({ group: "system", level: "warn", message: "m", source: "plugin-1", at: 42 });
    const b = store.append(entry("playback", "n"));
    expect(a).toEqual({ id: a.id, group: "system", level: "warn", message: "m", source: "plugin-1", at: 42 });
    expect(a.id).not.toBe(b.id);
    expect(store.entries()).toEqual([a, b]);
  });

  it("keeps only the newest entries of a group past its cap and counts the dropped ones", () => {
    const store = new LogStore(3);
    for (let i = 0; i < 5; i++) store.append(entry("system", `s${i}`));
    store.append(entry("playback", "p0"));
    expect(store.entries().map((e) => e.message)).toEqual(["s2", "s3", "s4", "p0"]);
    expect(store.dropped()).toEqual({ system: 2, playback: 0 });
    expect(store.size).toBe(4);
  });

  it("does not let one group push out the other", () => {
    const store = new LogStore(2);
    store.append(entry("playback", "p0"));
    for (let i = 0; i < 10; i++) store.append(entry("system", `s${i}`));
    expect(store.entries().map((e) => e.message)).toEqual(["p0", "s8", "s9"]);
    expect(store.dropped()).toEqual({ system: 8, playback: 0 });
  });

  it("lists entries of both groups oldest first in append order", () => {
    const store = new LogStore(10);
    const order = ["system", "playback", "playback", "system", "playback"] as const;
    order.forEach((group, i) => store.append(entry(group, `m${i}`)));
    expect(store.entries().map((e) => e.message)).toEqual(["m0", "m1", "m2", "m3", "m4"]);
  });

  it("gives a fresh array from entries() that callers cannot use to change the store", () => {
    const store = new LogStore(4);
    store.append(entry("system", "a"));
    const list = store.entries();
    list.pop();
    expect(store.entries()).toHaveLength(1);
    expect(store.entries()).not.toBe(store.entries());
  });

  it("increments version on every append, including ones that drop an entry", () => {
    const store = new LogStore(1);
    expect(store.version).toBe(0);
    store.append(entry("system", "a"));
    store.append(entry("system", "b"));
    expect(store.version).toBe(2);
  });

  it("with a cap of 0 keeps nothing and counts everything as dropped", () => {
    const store = new LogStore(0);
    store.append(entry("playback", "a"));
    expect(store.size).toBe(0);
    expect(store.dropped()).toEqual({ system: 0, playback: 1 });
  });

  it("refuses a cap that is not a non-negative integer", () => {
    for (const cap of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => new LogStore(cap)).toThrow(RangeError);
  });

  // How fast and how flat is measured by `npm run bench` (logs), never asserted here.
  it("stays at two caps of entries at most after appending ten times the cap", () => {
    const cap = 10_000;
    const store = new LogStore(cap);
    for (let i = 0; i < cap * 10; i++) store.append(entry(i % 3 === 0 ? "playback" : "system", `m${i}`));
    expect(store.size).toBe(2 * cap);
    expect(store.dropped().system + store.dropped().playback).toBe(cap * 10 - 2 * cap);
    expect(store.entries().at(-1)?.message).toBe(`m${cap * 10 - 1}`);
  });

  it("matches a naive model under any sequence of appends", () => {
    const op = fc.record({ group: fc.constantFrom<LogGroup>("system", "playback"), level: fc.constantFrom<LogLevel>("info", "warn", "error") });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.array(op, { maxLength: 60 }), (cap, ops) => {
        const store = new LogStore(cap);
        const appended = ops.map((o, i) => store.append({ ...o, message: `m${i}`, source: "s", at: i }));
        const kept = (group: LogGroup) => (cap === 0 ? [] : appended.filter((e) => e.group === group).slice(-cap));
        const expected = appended.filter((e) => kept("system").includes(e) || kept("playback").includes(e));
        expect(store.entries()).toEqual(expected);
        expect(store.size).toBe(expected.length);
        const count = (group: LogGroup) => appended.filter((e) => e.group === group).length;
        expect(store.dropped()).toEqual({
          system: count("system") - expected.filter((e) => e.group === "system").length,
          playback: count("playback") - expected.filter((e) => e.group === "playback").length,
        });
        expect(store.version).toBe(ops.length);
        expect(new Set(appended.map((e) => e.id)).size).toBe(appended.length);
      }),
    );
  });
});

describe("splitLinks", () => {
  const links = (message: string) => splitLinks(message).filter((p) => p.kind === "link");

  it("links http, https and mailto addresses, and bare emails as mailto", () => {
    expect(splitLinks("see http://a.com/x?y=1 now")).toEqual([
      { kind: "text", text: "see " },
      { kind: "link", text: "http://a.com/x?y=1", href: "http://a.com/x?y=1" },
      { kind: "text", text: " now" },
    ]);
    expect(links("go https://b.org/p")).toEqual([{ kind: "link", text: "https://b.org/p", href: "https://b.org/p" }]);
    expect(links("write mailto:al@y.com")).toEqual([{ kind: "link", text: "mailto:al@y.com", href: "mailto:al@y.com" }]);
    expect(links("write bob@x.org")).toEqual([{ kind: "link", text: "bob@x.org", href: "mailto:bob@x.org" }]);
  });

  it("does not link javascript:, ftp:, protocol-relative or bare host names", () => {
    for (const message of ["javascript:alert(1)", "ftp://files.example.com/a", "//example.com/x", "www.example.com", "loaded config.js"]) {
      expect(links(message)).toEqual([]);
      expect(splitLinks(message)).toEqual([{ kind: "text", text: message }]);
    }
  });

  it("links the http address inside a javascript: text only as http", () => {
    expect(links("javascript:alert('http://x.com')").map((p) => p.href)).toEqual(["http://x.com"]);
  });

  it("gives an empty list for an empty message", () => {
    expect(splitLinks("")).toEqual([]);
  });

  it("always gives the message back when its parts are joined, and only allowed hrefs", () => {
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom("http://a.com", "https://b.org/x?y=(1)", "mailto:c@d.io", "e@f.net", "javascript:alert(1)", "ftp://g.com", "//h.com", " ", ".", ")", "<", ">"),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const message = pieces.join("");
        const parts = splitLinks(message);
        expect(parts.map((p) => p.text).join("")).toBe(message);
        for (const part of parts) {
          expect(part.text.length).toBeGreaterThan(0);
          if (part.kind === "link") expect(part.href).toMatch(/^(https?:\/\/|mailto:)/i);
        }
      }),
      { numRuns: 500 },
    );
  });
});
