// The checks recorded by pointing at the page (services/recording/checks.ts) and the pointing
// machine that decides what a pick becomes (machines/pointing.machine.ts).
import { describe, expect, it } from "vitest";
import { createActor, fromCallback } from "xstate";
import { checkCommand, CHECKS, nextVariableName, storedVariables } from "../../services/recording/checks.ts";
import type { PickedFacts } from "../../services/recording/checks.ts";
import { pointingMachine } from "../../machines/pointing.machine.ts";

const picked = (over: Partial<Omit<PickedFacts, "fingerprint">> = {}): Omit<PickedFacts, "fingerprint"> => ({
  target: "id=greeting",
  targets: [["id=greeting", "id"], ["css=#greeting", "css:finder"]],
  text: "Hello there",
  value: null,
  title: "Shop",
  checked: null,
  tag: "h1",
  ...over,
});

describe("the next free variable name", () => {
  it("gives text1 in a test that stores nothing, and the first number no store of the test uses", () => {
    expect(nextVariableName("text", [])).toBe("text1");
    expect(nextVariableName("text", ["text1", "text3", "value2"])).toBe("text2");
    expect(nextVariableName("value", ["value1", "value2"])).toBe("value3");
  });

  it("reads the names a test stores from its store commands and scripts, not from other commands' values", () => {
    const commands = [
      { command: "storeText", value: "text1" },
      { command: "store", value: "total" },
      { command: "executeScript", value: "count" },
      { command: "type", value: "text2" },
      { command: "storeValue", value: "" },
    ];
    expect(storedVariables(commands)).toEqual(["text1", "total", "count"]);
  });
});

describe("the command a check records", () => {
  it("records assertText with the text as getText read it, and storeText with the next free name", () => {
    expect(checkCommand("assertText", picked(), [])).toMatchObject({ command: "assertText", target: "id=greeting", value: "Hello there", warning: null });
    expect(checkCommand("storeText", picked(), ["text1"])).toMatchObject({ command: "storeText", value: "text2", targets: picked().targets });
  });

  it("records an empty text with a warning that says so when the element has no text", () => {
    const check = checkCommand("assertText", picked({ text: "", tag: "div", target: "id=empty" }), []);
    expect(check.value).toBe("");
    expect(check.warning).toBe("the <div> pointed at (id=empty) has no visible text: assertText was recorded with an empty text.");
  });

  it("records a field's value, and warns when the element has none", () => {
    expect(checkCommand("assertValue", picked({ value: "Ada", tag: "input" }), [])).toMatchObject({ value: "Ada", warning: null });
    expect(checkCommand("storeValue", picked({ value: "Ada" }), ["value1"]).value).toBe("value2");
    expect(checkCommand("assertValue", picked(), []).warning).toContain("has no value");
  });

  it("records assertTitle with the title as its target and no element, as v3 does", () => {
    expect(checkCommand("assertTitle", picked(), [])).toEqual({ command: "assertTitle", target: "Shop", targets: [], value: "", withElement: false, warning: null });
  });

  it("records assertChecked, warning when the element is unchecked or no checkbox", () => {
    expect(checkCommand("assertChecked", picked({ checked: true }), []).warning).toBeNull();
    expect(checkCommand("assertChecked", picked({ checked: false }), []).warning).toContain("is not checked now");
    expect(checkCommand("assertChecked", picked(), []).warning).toContain("is not a checkbox");
  });

  it("records assertElementPresent with no value and waitForElementVisible with the recorder's wait", () => {
    expect(checkCommand("assertElementPresent", picked(), []).value).toBe("");
    expect(checkCommand("waitForElementVisible", picked(), []).value).toBe("30000");
  });

  it("names the eight checks as the page panel shows them", () => {
    expect(CHECKS.map((c) => c.label)).toEqual([
      "Assert text", "Assert value", "Assert title", "Assert element present", "Assert checked", "Store text", "Store value", "Wait for element visible",
    ]);
  });
});

describe("the pointing machine", () => {
  const start = () => {
    const armed: string[] = [];
    const facts: Array<{ type: string; [k: string]: unknown }> = [];
    const machine = pointingMachine.provide({
      actors: {
        pickInPage: fromCallback(({ input }) => {
          armed.push(`arm ${JSON.stringify(input)}`);
          return () => armed.push("disarm");
        }),
      },
    });
    const actor = createActor(machine).start();
    actor.on("*", (fact) => facts.push(fact as never));
    return { actor, armed, facts };
  };
  const report = { type: "recorder.picked" as const, ...picked(), frame: [], tabId: 1, plugins: ["p"], variables: ["text1"] };

  it("refuses a check while not recording, arming nothing", () => {
    const { actor, armed, facts } = start();
    actor.send({ type: "user.pickCheck", command: "assertText" });
    expect(armed).toEqual([]);
    expect(facts[0]).toMatchObject({ type: "log.written", level: "warn" });
  });

  it("arms a pick for a check while recording and records the element's check once picked, disarming the page", () => {
    const { actor, armed, facts } = start();
    actor.send({ type: "recording.started" });
    actor.send({ type: "user.pickCheck", command: "storeText" });
    expect(actor.getSnapshot().context.purpose).toEqual({ kind: "check", command: "storeText" });
    actor.send(report);
    expect(armed).toEqual(['arm {"kind":"check","command":"storeText"}', "disarm"]);
    expect(facts).toEqual([expect.objectContaining({ type: "pointing.checkPicked", command: "storeText", target: "id=greeting", value: "text2", plugins: ["p"] })]);
    expect(actor.getSnapshot().value).toBe("idle");
  });

  it("ends a check's pick when the recording stops, recording nothing", () => {
    const { actor, armed, facts } = start();
    actor.send({ type: "recording.started" });
    actor.send({ type: "user.pickCheck", command: "assertText" });
    actor.send({ type: "recording.stopped" });
    actor.send(report);
    expect(armed.at(-1)).toBe("disarm");
    expect(facts).toEqual([]);
  });

  it("sets the selected command's target from Select target in page, recording nothing", () => {
    const { actor, facts } = start();
    actor.send({ type: "user.selectTargetInPage", commandId: "c1" });
    actor.send(report);
    expect(facts).toEqual([{ type: "pointing.targetPicked", commandId: "c1", target: "id=greeting", targets: picked().targets }]);
  });

  it("changes nothing on Esc in the page or a pick the page could not locate, and says why", () => {
    const { actor, armed, facts } = start();
    actor.send({ type: "user.selectTargetInPage", commandId: "c1" });
    actor.send({ type: "recorder.pickCancelled", tabId: 1 });
    actor.send({ type: "user.selectTargetInPage", commandId: "c1" });
    actor.send({ type: "recorder.pickFailed", problem: "No locator could be built for the <svg> pointed at.", tabId: 1 });
    expect(armed.filter((a) => a === "disarm")).toHaveLength(2);
    expect(facts.map((f) => [f.type, f.level])).toEqual([["log.written", "info"], ["log.written", "error"]]);
    expect(facts[1]!.message).toBe("No locator could be built for the <svg> pointed at. Nothing was changed.");
  });
});
