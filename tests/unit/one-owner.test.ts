// One owner per fact (issue 19, item 3): a sentence, a rule or a choice that more than one
// part of the IDE gives is written in one place, and these tests hold every user of it to
// that place, so two places cannot drift apart again.
import { describe, expect, it } from "vitest";
import { createActor } from "xstate";
import type { AnyStateMachine } from "xstate";
import { route } from "../../core/door.ts";
import { controlMachine } from "../../machines/control.machine.ts";
import { recordingMachine } from "../../machines/recording.machine.ts";
import { pointingMachine } from "../../machines/pointing.machine.ts";
import { suiteRunnerMachine } from "../../machines/suiteRunner.machine.ts";
import { USER_EVENT_OWNER } from "../../machines/ide.routing.ts";
import { admissionError, controllerOf } from "../../machines/ide.rules.ts";
import { ideMachine } from "../../machines/ide.machine.ts";
import { NO_TEST } from "../../machines/editor.edits.ts";
import { projectFileMachine } from "../../machines/projectFile.machine.ts";
import { editorMachine } from "../../machines/editor.machine.ts";
import { busyReply, recordRouteRefusal, windowNotOpenReply } from "../../machines/replies.ts";
import type { LogWrittenEvent, Reply, RequestAnsweredEvent } from "../../machines/shared.types.ts";
import { userEventSchema } from "../../machines/userEvents.schema.ts";
import { testNameProblem } from "../../services/side/testName.ts";
import { registration, shop } from "../model/support.ts";

const A = "plugin-a";

/** Every event type a machine has a transition for, in any of its states. */
function eventTypesOf(machine: AnyStateMachine): Set<string> {
  const types = new Set<string>();
  const walk = (node: AnyStateMachine["root"]) => {
    for (const type of node.transitions.keys()) types.add(type);
    for (const child of Object.values(node.states)) walk(child);
  };
  walk(machine.root);
  return types;
}

function start<T extends typeof ideMachine | typeof projectFileMachine | typeof editorMachine>(logic: T, input: object) {
  const actor = createActor(logic as typeof ideMachine, { input: input as never });
  const replies: Reply[] = [];
  const logs: string[] = [];
  const collect = (event: RequestAnsweredEvent) => replies.push(event.reply);
  actor.on("request.answered" as never, collect as never);
  actor.on("log.written" as never, ((event: LogWrittenEvent) => logs.push(event.message)) as never);
  actor.start();
  return { actor, replies, logs };
}

describe("one owner per fact", () => {
  it("keeps who controls the IDE in the root's context alone, where admission reads it", () => {
    const { actor } = start(ideMachine, { project: shop(), window: "open" });
    actor.send({ type: "request.control", requestId: 1, sender: A, registration: registration("Plugin A") });
    actor.send({ type: "user.accept" });
    const snapshot = actor.getSnapshot();
    expect(snapshot.context.controller).toBe(A);
    expect(controllerOf(snapshot)).toBe(A);
    expect(Object.keys(snapshot.context.control.getSnapshot().context)).toEqual(["candidate"]);
  });

  it("refuses a request while the window is closed with one sentence, at the door and in the root", () => {
    const { actor, replies } = start(ideMachine, { project: shop(), window: "closed" });
    const door = admissionError(actor.getSnapshot(), A, { controlledOnly: false, needsRegistration: false, opensWindow: false });
    actor.send({ type: "request.register", requestId: 1, sender: A, registration: registration("Plugin A") });
    expect(door).toEqual(windowNotOpenReply());
    expect(replies).toEqual([windowNotOpenReply()]);
  });

  it("answers Busy with one sentence from the root and from the project file machine", () => {
    const ide = start(ideMachine, { project: shop(), window: "open" });
    ide.actor.send({ type: "request.register", requestId: 1, sender: A, registration: registration("Plugin A") });
    ide.actor.send({ type: "request.alert", requestId: 2, sender: A, message: "first" });
    ide.actor.send({ type: "request.alert", requestId: 3, sender: A, message: "second" });

    const project = start(projectFileMachine, { project: shop() });
    project.actor.send({ type: "user.editProject" } as never);
    project.actor.send({ type: "request.close", requestId: 1, sender: A } as never);
    project.actor.send({ type: "request.close", requestId: 2, sender: A } as never);

    expect(ide.replies).toEqual([{ ok: true, value: true }, busyReply()]);
    expect(project.replies).toEqual([busyReply()]);
  });

  it("keeps whose dialog is open in the root alone, which tells the project file machine with each load and close", () => {
    const { actor } = start(ideMachine, { project: shop(), window: "open" });
    const fileReplies: Reply[] = [];
    actor.getSnapshot().context.projectFile.on("request.answered", (event) => fileReplies.push(event.reply));
    route(actor, { type: "user.editProject" });
    actor.send({ type: "request.alert", requestId: 1, sender: A, message: "an open dialog" });
    actor.send({ type: "request.loadProject", requestId: 2, sender: A, project: shop() });
    expect(actor.getSnapshot().context.alert?.requestId).toBe(1);
    expect(fileReplies).toEqual([busyReply()]);
    expect(Object.keys(actor.getSnapshot().context.projectFile.getSnapshot().context)).not.toContain("otherDialogOpen");
  });

  it("gives the anchor's fields to the codes the record routes choose, on every route that answers them", () => {
    const empty = { ...shop(), tests: [] };
    const { actor, replies } = start(editorMachine, { project: empty });
    actor.send({ type: "request.addCommand", requestId: 1, sender: A, command: "echo" } as never);
    // The editor refuses the edit as GET /record/command refuses the read.
    expect(replies).toEqual([recordRouteRefusal("NoTestSelected", NO_TEST)]);
    expect(recordRouteRefusal("NoTestSelected", NO_TEST)).toMatchObject({ anchorFields: true });
    expect(recordRouteRefusal("UnknownCommand", "no such command")).toMatchObject({ anchorFields: true });
    expect(recordRouteRefusal("Busy", "being played")).not.toHaveProperty("anchorFields");
  });

  it("refuses the same test names with the same sentence in the UI and in the editor", () => {
    const project = shop();
    const taken = project.tests[0].name;
    const cases: Array<[string, string | null]> = [
      ["   ", null],
      [` ${taken} `, null],
      [taken, project.tests[1]?.id ?? null],
    ];
    for (const [name, renaming] of cases) {
      const { actor, logs } = start(editorMachine, { project });
      const ui = testNameProblem(name, project.tests, renaming);
      expect(ui, name).not.toBeNull();
      actor.send((renaming === null ? { type: "user.addTest", name } : { type: "user.renameTest", testId: renaming, name }) as never);
      expect(logs, name).toEqual([`${ui} Nothing was changed.`]);
    }
  });

  it("gives every user event the schema lets through the door to a machine that handles it, the one its owner names", () => {
    const machines = { root: ideMachine, control: controlMachine, projectFile: projectFileMachine, editor: editorMachine, suiteRunner: suiteRunnerMachine, recording: recordingMachine, pointing: pointingMachine };
    const types = userEventSchema.options.map((option) => option.shape.type.value);
    const unhandled = types.filter((type) => !eventTypesOf(machines[USER_EVENT_OWNER[type]]).has(type));
    expect(unhandled).toEqual([]);
  });
});
