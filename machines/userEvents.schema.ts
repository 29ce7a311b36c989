// The user's events (CONTRACT section 5) as a zod schema: what the IDE UI may send through
// ide.send(). The schema is the one description of them. The door (core/userEvents.ts)
// parses raw input with it, and the machines take their event types from it with z.infer,
// so a field added here is checked at the door and typed in the machines at once. It lives
// beside the machines because they may not import the core; nothing here runs in a machine.
import { z } from "zod";
import { MAX_DELAY_MS } from "../services/playback/delay.ts";
import type { SideProject } from "../services/side/index.ts";
import { locatorOrderSchema, testIdAttributesSchema } from "../services/side/settings.ts";
import { MAX_DATA_FILE_CHARS } from "../services/side/dataFiles.ts";
import { FingerprintSchema } from "../services/healing/schema.ts";
import { CHECK_COMMANDS } from "../services/recording/checks.ts";

const bare = <T extends `user.${string}`>(type: T) => z.object({ type: z.literal(type) });
const index = z.number().int().min(0);
const MAX_NAME = 1000;
const MAX_TEXT = 64 * 1024;
const MAX_IDS = 10_000;
/** A suite's timeout (seconds): side files say 300 by default; a day is the most anyone means. */
const MAX_SUITE_TIMEOUT_S = 86_400;
const commandIds = z.array(z.string()).min(1).max(MAX_IDS);

export const userEventSchema = z.discriminatedUnion("type", [
  bare("user.openWindow"),
  bare("user.closeWindow"),
  bare("user.accept"),
  bare("user.decline"),
  bare("user.editProject"),
  // CONTRACT section 20: `path` is "Save as" in the host (absolute; the file every later Save writes).
  z.object({ type: z.literal("user.saveProject"), path: z.string().min(1).max(4096).optional() }),
  // "Play from here" (fromCommandId) and "Play to here" (untilCommandId: the run pauses before it).
  z.object({
    type: z.literal("user.startPlayback"),
    testId: z.string().optional(),
    fromCommandId: z.string().optional(),
    untilCommandId: z.string().optional(),
  }),
  z.object({ type: z.literal("user.startSuite"), suiteId: z.string().optional() }),
  bare("user.stopPlayback"),
  bare("user.pausePlayback"),
  bare("user.resumePlayback"),
  bare("user.stepPlayback"),
  z.object({ type: z.literal("user.toggleBreakpoint"), commandId: z.string() }),
  /** Which test of a parallel suite the view shows (its runId, from playback.suite.runs). */
  z.object({ type: z.literal("user.showTestRun"), runId: z.string().min(1).max(200) }),
  z.object({ type: z.literal("user.setPlaybackDelay"), ms: z.number().int().min(0).max(MAX_DELAY_MS) }),
  // Not in CONTRACT section 5 before issue 3: the UI's "load a .side file". The project is
  // checked by the .side schema at the door, which names the first problem.
  z.object({ type: z.literal("user.loadProject"), project: z.unknown() }),
  // The displayed test and its editor (CONTRACT section 13). What depends on the project (an
  // unknown id, a duplicate name, an index past the end) is the editor's to refuse.
  z.object({ type: z.literal("user.selectTest"), testId: z.string() }),
  z.object({ type: z.literal("user.selectCommand"), commandId: z.string().nullable() }),
  z.object({ type: z.literal("user.addTest"), name: z.string() }),
  z.object({ type: z.literal("user.renameTest"), testId: z.string(), name: z.string() }),
  z.object({
    type: z.literal("user.addCommand"),
    command: z.string(),
    target: z.string().optional(),
    value: z.string().optional(),
    index: index.optional(),
  }),
  z.object({
    type: z.literal("user.changeCommand"),
    commandId: z.string(),
    command: z.string().optional(),
    target: z.string().optional(),
    value: z.string().optional(),
    // The element's fingerprint (CONTRACT section 18): what accepting a healed command refreshes.
    fingerprint: FingerprintSchema.optional(),
    // CONTRACT section 20: v3's "Description".
    comment: z.string().max(MAX_TEXT).optional(),
  }),
  // CONTRACT section 21: one of the command's recorded `targets` becomes its target ("Alternative locators").
  z.object({ type: z.literal("user.chooseLocator"), commandId: z.string(), locator: z.string().min(1).max(MAX_TEXT) }),
  z.object({ type: z.literal("user.moveCommand"), commandId: z.string(), toIndex: index }),
  z.object({ type: z.literal("user.deleteCommand"), commandId: z.string() }),
  // CONTRACT section 18: a healed command's working locator becomes its target.
  z.object({ type: z.literal("user.acceptHealed"), commandId: z.string() }),
  bare("user.acceptAllHealed"),
  // Recording (CONTRACT section 14): into the displayed test.
  bare("user.startRecording"),
  bare("user.stopRecording"),
  // Pointing at the page (CONTRACT section 21): a check recorded for the element the next click
  // on the page picks (while recording), the selected command's target set from it, or neither.
  z.object({ type: z.literal("user.pickCheck"), command: z.enum(CHECK_COMMANDS) }),
  z.object({ type: z.literal("user.selectTargetInPage"), commandId: z.string().min(1).max(MAX_NAME) }),
  bare("user.cancelPick"),
  // The project's recording settings (CONTRACT section 18): each given one replaces the project's.
  z.object({
    type: z.literal("user.changeSettings"),
    locatorOrder: locatorOrderSchema.optional(),
    testIdAttributes: testIdAttributesSchema.optional(),
    heal: z.boolean().optional(),
  }),
  // The editor (CONTRACT section 20). Every one of them but copy is an edit: one step of the
  // undo history. What depends on the project (an unknown id, a taken name) is the editor's to refuse.
  bare("user.undo"),
  bare("user.redo"),
  bare("user.newProject"),
  z.object({ type: z.literal("user.changeProject"), name: z.string().max(MAX_NAME).optional(), url: z.string().max(MAX_TEXT).optional() }),
  z.object({ type: z.literal("user.duplicateTest"), testId: z.string() }),
  z.object({ type: z.literal("user.deleteTest"), testId: z.string() }),
  z.object({ type: z.literal("user.addSuite"), name: z.string().max(MAX_NAME) }),
  z.object({ type: z.literal("user.renameSuite"), suiteId: z.string(), name: z.string().max(MAX_NAME) }),
  z.object({ type: z.literal("user.deleteSuite"), suiteId: z.string() }),
  z.object({ type: z.literal("user.setSuiteTests"), suiteId: z.string(), testIds: z.array(z.string()).max(MAX_IDS) }),
  z.object({
    type: z.literal("user.changeSuite"),
    suiteId: z.string(),
    parallel: z.boolean().optional(),
    persistSession: z.boolean().optional(),
    timeoutS: z.number().int().min(1).max(MAX_SUITE_TIMEOUT_S).optional(),
  }),
  // CONTRACT section 22: a data file carried in the project, for loadVars (the name's rules are the editor's to say).
  z.object({ type: z.literal("user.addDataFile"), name: z.string().max(4096), content: z.string().max(MAX_DATA_FILE_CHARS) }),
  z.object({ type: z.literal("user.removeDataFile"), name: z.string().max(4096) }),
  z.object({ type: z.literal("user.copyCommands"), commandIds: commandIds }),
  z.object({ type: z.literal("user.cutCommands"), commandIds: commandIds }),
  // `commands`: .side commands as the system clipboard gives them (checked by the editor, which names what is wrong).
  z.object({ type: z.literal("user.pasteCommands"), afterCommandId: z.string().optional(), commands: z.array(z.unknown()).max(MAX_IDS).optional() }),
  z.object({ type: z.literal("user.toggleCommandsDisabled"), commandIds: commandIds }),
  z.object({ type: z.literal("user.executeCommand"), commandId: z.string() }),
  z.object({ type: z.literal("user.openRecent"), path: z.string().min(1).max(4096) }),
]);

/** Who owns a user event (the door routes it there by this table): a child machine, or the root for what spans children. */
export type UserEventOwner = "root" | "control" | "projectFile" | "editor" | "suiteRunner" | "recording" | "pointing";

/**
 * The routing table (DESIGN, Round 5: "the door routes, the root decides"). An event owned by
 * a child goes to it straight from the door while the window is open; "root" events are the
 * decisions that span children: the window, one dialog at a time, the run lock, what a run or a
 * recording starts on. A new event without an owner does not type-check.
 */
export const USER_EVENT_OWNER = {
  "user.openWindow": "root",
  "user.closeWindow": "root",
  "user.accept": "root",
  "user.decline": "root",
  "user.editProject": "projectFile",
  "user.saveProject": "root",
  "user.startPlayback": "root",
  "user.startSuite": "root",
  "user.stopPlayback": "suiteRunner",
  "user.pausePlayback": "suiteRunner",
  "user.resumePlayback": "suiteRunner",
  "user.stepPlayback": "suiteRunner",
  "user.toggleBreakpoint": "suiteRunner",
  "user.showTestRun": "suiteRunner",
  "user.setPlaybackDelay": "suiteRunner",
  "user.loadProject": "root",
  "user.selectTest": "editor",
  "user.selectCommand": "editor",
  "user.addTest": "editor",
  "user.renameTest": "editor",
  "user.addCommand": "editor",
  "user.changeCommand": "editor",
  "user.chooseLocator": "editor",
  "user.moveCommand": "editor",
  "user.deleteCommand": "editor",
  "user.acceptHealed": "root",
  "user.acceptAllHealed": "root",
  "user.startRecording": "root",
  "user.stopRecording": "recording",
  "user.pickCheck": "pointing",
  "user.selectTargetInPage": "pointing",
  "user.cancelPick": "pointing",
  "user.changeSettings": "editor",
  "user.undo": "editor",
  "user.redo": "editor",
  "user.newProject": "root",
  "user.changeProject": "editor",
  "user.duplicateTest": "editor",
  "user.deleteTest": "editor",
  "user.addSuite": "editor",
  "user.renameSuite": "editor",
  "user.deleteSuite": "editor",
  "user.setSuiteTests": "editor",
  "user.changeSuite": "editor",
  "user.addDataFile": "editor",
  "user.removeDataFile": "editor",
  "user.copyCommands": "editor",
  "user.cutCommands": "editor",
  "user.pasteCommands": "editor",
  "user.toggleCommandsDisabled": "editor",
  "user.executeCommand": "root",
  "user.openRecent": "root",
} as const satisfies Record<z.infer<typeof userEventSchema>["type"], UserEventOwner>;

/** What ide.send takes: a user event, where a project the user picked is not parsed yet. */
export type UserEventInput = z.infer<typeof userEventSchema>;

/** A user event as the machines take it: past the door, so a loaded project is a parsed .side project. */
export type UserEvent =
  | Exclude<UserEventInput, { type: "user.loadProject" }>
  | { type: "user.loadProject"; project: SideProject };

/** The user events of these types, as the schema gives them: a machine takes its user events from here, never restates them. */
export type UserEventOf<T extends UserEvent["type"]> = Extract<UserEvent, { type: T }>;

/** What the user looks at: not an edit, the project stays as saved as it was. */
export type UserSelectEvent = Extract<UserEvent, { type: "user.selectTest" | "user.selectCommand" }>;

/** The user's edits of the displayed test and the project's tests. */
export type UserEditEvent = Extract<
  UserEvent,
  {
    type:
      | "user.addTest"
      | "user.renameTest"
      | "user.addCommand"
      | "user.changeCommand"
      | "user.chooseLocator"
      | "user.moveCommand"
      | "user.deleteCommand"
      | "user.changeSettings";
  }
>;

/** The editor's events of CONTRACT section 20 (undo, tests, suites, the project, the clipboard). */
export type UserEditorEvent = Extract<
  UserEvent,
  {
    type:
      | "user.undo"
      | "user.redo"
      | "user.changeProject"
      | "user.duplicateTest"
      | "user.deleteTest"
      | "user.addSuite"
      | "user.renameSuite"
      | "user.deleteSuite"
      | "user.setSuiteTests"
      | "user.changeSuite"
      | "user.addDataFile"
      | "user.removeDataFile"
      | "user.copyCommands"
      | "user.cutCommands"
      | "user.pasteCommands"
      | "user.toggleCommandsDisabled";
  }
>;
