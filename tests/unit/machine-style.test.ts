// DESIGN.md: every action, guard and actor is named in setup() and referred to by name, so
// the inspector shows names, not "(anonymous)". This walks each machine and holds it to that.
import { describe, expect, it } from "vitest";
import type { AnyStateMachine } from "xstate";
import { getStateNodes } from "xstate/graph";
import { controlMachine } from "../../machines/control.machine.ts";
import { ideMachine } from "../../machines/ide.machine.ts";
import { projectFileMachine } from "../../machines/projectFile.machine.ts";
import { editorMachine } from "../../machines/editor.machine.ts";
import { exportMachine } from "../../machines/export.machine.ts";
import { suiteRunnerMachine } from "../../machines/suiteRunner.machine.ts";
import { testRunnerMachine } from "../../machines/testRunner.machine.ts";
import { recordingMachine } from "../../machines/recording.machine.ts";
import { doorMachine } from "../../apps/extension/door.machine.ts";
import { relayMachine } from "../../apps/extension/relay.machine.ts";

type Ref = unknown;

const nameOf = (ref: Ref): string | null => {
  if (typeof ref === "string") return ref;
  if (ref && typeof ref === "object" && typeof (ref as { type?: unknown }).type === "string") {
    return (ref as { type: string }).type;
  }
  return null; // an inline function or a higher-order guard written in place
};

/** XState's own actions, such as the raise and cancel that a named `after` delay puts on a state. */
const isBuiltIn = (ref: Ref): boolean => {
  const type = typeof ref === "function" ? (ref as unknown as { type?: unknown }).type : undefined;
  return typeof type === "string" && type.startsWith("xstate.");
};

/** Every place in the machine that refers to an action, a guard or an actor, and what it names. */
function references(machine: AnyStateMachine) {
  const found: Array<{ where: string; kind: "actions" | "guards" | "actors"; name: string | null }> = [];
  for (const node of getStateNodes(machine.root).concat(machine.root)) {
    const transitions = [...node.transitions.values()].flat().concat(node.always ?? []);
    for (const t of transitions) {
      const where = `${node.id} on ${t.eventType || "always"}`;
      if (t.guard !== undefined) found.push({ where, kind: "guards", name: nameOf(t.guard) });
      for (const a of t.actions) found.push({ where, kind: "actions", name: nameOf(a) });
    }
    for (const a of [...node.entry, ...node.exit].filter((ref) => !isBuiltIn(ref))) found.push({ where: `${node.id} entry/exit`, kind: "actions", name: nameOf(a) });
    for (const i of node.invoke) found.push({ where: `${node.id} invoke`, kind: "actors", name: nameOf(i.src) });
  }
  return found;
}

describe.each([
  ["control", controlMachine],
  ["project file", projectFileMachine],
  ["editor", editorMachine],
  ["suite runner", suiteRunnerMachine],
  ["test runner", testRunnerMachine],
  ["recording", recordingMachine],
  ["ide", ideMachine],
  ["extension relay", relayMachine],
  ["extension door", doorMachine],
] as Array<[string, AnyStateMachine]>)("the %s machine", (_, machine) => {
  it("refers to every action, guard and actor by a name defined in setup()", () => {
    const refs = references(machine);
    expect(refs.length).toBeGreaterThan(0);
    const unnamed = refs.filter((r) => r.name === null || !(r.name in machine.implementations[r.kind]));
    expect(unnamed).toEqual([]);
  });

  it("has dotted lower camel case event names", () => {
    const events = getStateNodes(machine.root)
      .concat(machine.root)
      .flatMap((node) => [...node.transitions.keys()])
      .filter((type) => !type.startsWith("xstate."));
    expect(events.length).toBeGreaterThan(0);
    for (const type of events) expect(type).toMatch(/^[a-z]+(\.[a-z][a-zA-Z]*)+$/);
  });
});

// The export machine takes no events of its own: it runs once, from its actors' answers.
describe("the export machine", () => {
  it("refers to every action, guard and actor by a name defined in setup()", () => {
    const refs = references(exportMachine);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((r) => r.name === null || !(r.name in exportMachine.implementations[r.kind]))).toEqual([]);
  });
});
