// The pointing machine's context, events, facts and port (CONTRACT section 21).
import type { CheckCommand, PickedFacts } from "../services/recording/checks.ts";
import type { FramePath, FrameTargets, RecordedTargets } from "../services/recording/index.ts";
import type { Fingerprint } from "../services/healing/fingerprint.ts";
import type { LogWrittenEvent } from "./shared.types.ts";
import type { UserEventOf } from "./userEvents.schema.ts";

/** What the pick is for: a check recorded for the element, or the target of a command set from it. */
export type PickPurpose = { kind: "check"; command: CheckCommand } | { kind: "target"; commandId: string };

export interface PointingContext {
  /** The pick armed in the page, or null. */
  purpose: PickPurpose | null;
  /** A recording is under way (recording.started until recording.stopped): checks are recorded only then. */
  recording: boolean;
}

/** The element a pick took in the page (the recorder's report, admitted at the door); the root adds the plugins and the variables the recorded test stores. */
export type RecorderPickedEvent = {
  type: "recorder.picked";
  frame: FramePath;
  frameTargets?: FrameTargets;
  tabId: number | null;
  plugins: readonly string[];
  /** The variables the test recorded into (else the displayed one) stores: a store* names the next free one. */
  variables: readonly string[];
} & Omit<PickedFacts, "fingerprint" | "targets"> & { targets: RecordedTargets; fingerprint?: Fingerprint };

/** The page could take no element (no builder locates it, the click hit nothing): why. */
export type RecorderPickFailedEvent = { type: "recorder.pickFailed"; problem: string; tabId: number | null };
/** The user pressed Esc in the page. */
export type RecorderPickCancelledEvent = { type: "recorder.pickCancelled"; tabId: number | null };

export type PickReportEvent = RecorderPickedEvent | RecorderPickFailedEvent | RecorderPickCancelledEvent;

/** The pickInPage port could not arm a pick (no page under test, the browser gone): why. */
export type PickUnavailableEvent = { type: "pick.unavailable"; problem: string };

export type PointingEvent =
  | UserEventOf<"user.pickCheck" | "user.selectTargetInPage" | "user.cancelPick">
  | PickReportEvent
  | PickUnavailableEvent
  | { type: "recording.started" }
  | { type: "recording.stopped" };

/** A check to record (the recording machine records it as any command of the page: frames, windows, plugins). */
export type CheckPickedFact = {
  type: "pointing.checkPicked";
  command: CheckCommand;
  target: string;
  targets: RecordedTargets;
  value: string;
  frame: FramePath;
  frameTargets?: FrameTargets;
  fingerprint?: Fingerprint;
  /** assertTitle: no element, so no frame to select; it plays in whatever frame the test is in. */
  anyFrame: boolean;
  tabId: number | null;
  plugins: readonly string[];
};

/** Select target in page: the command's target, targets and fingerprint, an edit of the editor's. */
export type TargetPickedFact = {
  type: "pointing.targetPicked";
  commandId: string;
  target: string;
  targets: RecordedTargets;
  fingerprint?: Fingerprint;
};

export type PointingFact = CheckPickedFact | TargetPickedFact;
export type PointingEmitted = PointingFact | LogWrittenEvent;

/** The pickInPage port's input: what the pick is for (the page's side is the same for both). */
export type PickInPageInput = PickPurpose;
