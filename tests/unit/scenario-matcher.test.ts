// The scenario replayer is only as strict as its matcher: these pin the rules of
// ../shared/scenarios/README.md, so a matcher that accepted anything would fail here.
import { describe, expect, it } from "vitest";
import { mismatch } from "../support/match.ts";

describe("the scenario matcher", () => {
  it("matches a primitive only by an equal value", () => {
    expect(mismatch(true, true)).toBeNull();
    expect(mismatch(true, false)).not.toBeNull();
    expect(mismatch("a", "b")).not.toBeNull();
    expect(mismatch(null, undefined)).not.toBeNull();
  });

  it("checks only the keys an object names", () => {
    expect(mismatch({ a: 1 }, { a: 1, b: 2 })).toBeNull();
    expect(mismatch({ a: 1, c: 3 }, { a: 1, b: 2 })).toContain("$.c");
  });

  it("needs a non-empty error string beside a matching errorCode", () => {
    expect(mismatch({ errorCode: "NoRoute" }, { error: "no route", errorCode: "NoRoute" })).toBeNull();
    expect(mismatch({ errorCode: "NoRoute" }, { errorCode: "NoRoute" })).not.toBeNull();
    expect(mismatch({ errorCode: "NoRoute" }, { error: "", errorCode: "NoRoute" })).not.toBeNull();
    expect(mismatch({ errorCode: "NoRoute" }, false)).not.toBeNull();
  });

  it("matches arrays item by item with the same length", () => {
    expect(mismatch([{ id: "a" }, {}], [{ id: "a", x: 1 }, { id: "b" }])).toBeNull();
    expect(mismatch([{ id: "a" }], [{ id: "a" }, { id: "b" }])).not.toBeNull();
    expect(mismatch([{ id: "b" }], [{ id: "a" }])).not.toBeNull();
  });

  it("supports $contains and $length", () => {
    expect(mismatch({ $contains: [{ m: 1 }, { m: 2 }] }, [{ m: 2 }, { m: 3 }, { m: 1 }])).toBeNull();
    expect(mismatch({ $contains: [{ m: 4 }] }, [{ m: 2 }])).not.toBeNull();
    expect(mismatch({ $length: 0 }, [])).toBeNull();
    expect(mismatch({ $length: 0 }, [1])).not.toBeNull();
  });
});
