// What the root hands its children and hears from them: which events it forwards to which
// child, the actor that relays the children's facts back, and the small helpers its actions
// share (the request an answer answers, what plugins are told of a fact). The decisions stay
// in ide.machine.ts; this is its wiring.
import { fromCallback } from "xstate";
import type { AnyActorRef } from "xstate";
import { eachTestRunner } from "./run.selectors.ts";
import type { SuiteRunnerRef } from "./run.selectors.ts";
import { FACT_CONSUMERS } from "./ide.routing.ts";
import type { ChildName } from "./ide.routing.ts";
import type { IdeContext } from "./ide.types.ts";
import type { ChildFact, IdeEvent, OutboundMessage } from "./ide.types.ts";

/**
 * Relays what the child machines emit, and what the test runners (the run machine's children)
 * emit: a fact other children act on goes straight to them, in the order emitted, by
 * FACT_CONSUMERS (ide.routing.ts); the rest, and those the root acts on too, go to the root. A
 * command's log entry goes to the root without a step through the suite runner. Answers to
 * requests are the one exception: the protocol adapter listens for those on each child, which
 * saves a root step on the busiest route (command states).
 */
export const relayChildFacts = fromCallback<ChildFact, { children: Record<ChildName, AnyActorRef> }>(({ sendBack, input }) => {
  const { children } = input;
  const relay = (actor: AnyActorRef) =>
    actor.on("*", (fact: { type: string }) => {
      if (fact.type === "request.answered") return;
      const consumers = FACT_CONSUMERS[fact.type as ChildFact["type"]] ?? ROOT_ONLY;
      for (const consumer of consumers) {
        if (consumer === "root") sendBack(fact as ChildFact);
        else children[consumer].send(fact);
      }
    });
  const subscriptions = Object.values(children).map(relay);
  const runners = eachTestRunner(children.suiteRunner as SuiteRunnerRef, (runner) => {
    const subscription = relay(runner);
    return () => subscription.unsubscribe();
  });
  return () => {
    subscriptions.forEach((s) => s.unsubscribe());
    runners.unsubscribe();
  };
});

const ROOT_ONLY = ["root"] as const;

/** What the plugins are told of a fact (CONTRACT section 8), if anything; runs tell their own. */
export function outboundFor(fact: IdeEvent): OutboundMessage | null {
  if (fact.type === "project.loaded") {
    return { action: "event", event: "projectLoaded", options: { projectId: fact.projectId, projectName: fact.projectName } };
  }
  // CONTRACT section 14; a recorded command is told by the recording machine, which reads the answers.
  if (fact.type === "recording.started") return { action: "event", event: "recordingStarted", options: { testName: fact.testName } };
  if (fact.type === "recording.stopped") return { action: "event", event: "recordingStopped", options: { testName: fact.testName } };
  return null;
}

type RequestEvent = Extract<IdeEvent, { requestId: number }>;

/** The request an answering action of the root answers; any other event there is a bug in ide.machine.ts. */
export function requestOf(event: IdeEvent): RequestEvent {
  if (!("requestId" in event) || typeof event.requestId !== "number") {
    throw new Error(`ide machine: an answer was given to ${event.type}, which is not a request`);
  }
  return event as RequestEvent;
}

export const TO_CONTROL = ["request.control", "user.accept", "user.decline", "plugin.disconnected"] as const;
/** What the root passes to the project file machine: loads, closes and dialogs' answers, with whether another dialog is open. */
export const TO_PROJECT_FILE = ["request.loadProject", "request.close", "user.accept", "user.decline", "user.loadProject", "plugin.disconnected"] as const;
/** What the root passes to the recording as it came: the recorder's word that the tab under test closed. */
export const TO_RECORDING = ["recorder.tabClosed"] as const;
/** What the page's recorder reports; the root adds the plugins to tell of each command. */
export const RECORDER_REPORTS = [
  "recorder.commandRecorded",
  "recorder.pageSeen",
  "recorder.typing",
  "recorder.windowOpened",
  "recorder.windowClosed",
] as const;
/** What a pick in the page reports (CONTRACT section 21): the root adds the plugins and the variables the test stores. */
export const PICK_REPORTS = ["recorder.picked", "recorder.pickFailed", "recorder.pickCancelled"] as const;
export const pickReports = Object.fromEntries(PICK_REPORTS.map((type) => [type, { actions: "forwardPickReport" as const }])) as Record<
  (typeof PICK_REPORTS)[number],
  { actions: "forwardPickReport" }
>;
/** The root's transitions for them: each goes to the recording, with the plugins registered now. */
export const recorderReports = Object.fromEntries(RECORDER_REPORTS.map((type) => [type, { actions: "forwardRecorderReport" as const }])) as Record<
  (typeof RECORDER_REPORTS)[number],
  { actions: "forwardRecorderReport" }
>;
