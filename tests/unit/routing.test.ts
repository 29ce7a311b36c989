// The door routes, the root decides (DESIGN, Round 5): an event a child machine owns goes to
// it from the door by one table, and the root has no transition that only passes it on.
import { describe, expect, it } from "vitest";
import { createIde } from "../../core/ide.ts";
import { ideMachine } from "../../machines/ide.machine.ts";
import { FACT_CONSUMERS, ownerOf, REQUEST_OWNER, USER_EVENT_OWNER } from "../../machines/ide.routing.ts";
import { userEventSchema } from "../../machines/userEvents.schema.ts";
import { shop } from "../model/support.ts";

/** Every event type the root machine has a transition for, in any of its states. */
function rootEventTypes(): Set<string> {
  const types = new Set<string>();
  const walk = (node: { transitions: Map<string, unknown[]>; states?: Record<string, unknown> }) => {
    for (const type of node.transitions.keys()) types.add(type);
    for (const child of Object.values(node.states ?? {})) walk(child as typeof node);
  };
  walk(ideMachine.root as unknown as Parameters<typeof walk>[0]);
  return types;
}

const schemaTypes = userEventSchema.options.map((option) => option.shape.type.value as string);

describe("the door's routing table", () => {
  it("names an owner for every user event of the schema, and no event the schema lacks", () => {
    expect(Object.keys(USER_EVENT_OWNER).sort()).toEqual([...schemaTypes].sort());
  });

  it("leaves the root no transition for a user event or request a child owns", () => {
    const root = rootEventTypes();
    const childOwned = [...Object.entries(USER_EVENT_OWNER), ...Object.entries(REQUEST_OWNER)].filter(([, owner]) => owner !== "root");
    expect(childOwned.length).toBeGreaterThan(20);
    // While the window is closed the root answers a child's request itself (WindowClosed): that is its decision, not a pass-on.
    const openState = ideMachine.root.states.open;
    const passedOn = childOwned.filter(([type]) => openState.transitions.has(type)).map(([type]) => type);
    expect(passedOn).toEqual([]);
    // And what a root-owned event is still reaches a transition of the root.
    const rootOwned = Object.entries(USER_EVENT_OWNER).filter(([, owner]) => owner === "root").map(([type]) => type);
    const missing = rootOwned.filter((type) => !root.has(type));
    expect(missing).toEqual([]);
  });

  it("relays a child's fact that only other children act on straight to them, not through the root", () => {
    const root = rootEventTypes();
    const straight = Object.entries(FACT_CONSUMERS).filter(([, consumers]) => !consumers!.includes("root")).map(([type]) => type);
    expect(straight).toContain("project.edited");
    expect(straight.filter((type) => root.has(type))).toEqual([]);
  });

  it("gives a request of the run to the run and an edit of the displayed test to the editor", () => {
    expect(ownerOf({ type: "request.commandState", requestId: 1, sender: "p", commandId: "c", state: "passed", message: null })).toBe("suiteRunner");
    expect(ownerOf({ type: "request.deleteCommand", requestId: 1, sender: "p", id: "c" })).toBe("editor");
    expect(ownerOf({ type: "user.addTest", name: "t" })).toBe("editor");
    expect(ownerOf({ type: "user.startPlayback" })).toBe("root");
  });

  it("edits the project through createIde while the window is open, and changes nothing while it is closed", () => {
    const open = createIde({ project: shop() });
    open.send({ type: "user.addTest", name: "routed" });
    expect(open.getProject().tests.map((t) => t.name)).toContain("routed");
    expect(open.getSnapshot().project.unsaved).toBe(true);
    open.stop();

    const closed = createIde({ project: shop(), window: "closed" });
    closed.send({ type: "user.addTest", name: "routed" });
    expect(closed.getProject().tests.map((t) => t.name)).not.toContain("routed");
    expect(closed.getSnapshot().project.unsaved).toBe(false);
    closed.stop();
  });
});
