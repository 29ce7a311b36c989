// The ports through which the core reaches the outside: delivering messages to plugins,
// saving to the computer, and resolving locators. Each turns a rejection, a time-out or an
// error answer into something the machines understand; none decides policy.
import { fromCallback, fromPromise } from "xstate";
import type { PickInPageInput, PickUnavailableEvent } from "../machines/pointing.types.ts";
import type { OutboundMessage } from "../machines/ide.types.ts";
import type {
  ConditionInput,
  DataRow,
  PageCommandInput,
  PageOutcome,
  PluginCommandInput,
  ReadDataInput,
  TellPluginsInput,
  TellPluginsOutput,
} from "../machines/testRunner.types.ts";
import { refusesToStart } from "../services/playback/pluginAnswer.ts";
import { asWritten, declaredCommand } from "../services/playback/strategies.ts";
import type { Delivery } from "../services/playback/pluginAnswer.ts";
import type { ReadProjectInput, SaveInput, SaveOutcome } from "../machines/projectFile.types.ts";
import type { AskPluginsInput, PluginAnswers } from "../machines/recording.types.ts";
import { fail, ok } from "../machines/replies.ts";
import type { Reply } from "../machines/shared.types.ts";
import { messageOf } from "../services/errors.ts";
import { withTimeout } from "../services/timeout.ts";
import { isLocatorErrorCode, parseLocator, resolveInDocument } from "../services/locators/index.ts";
import { parseSideProject } from "../services/side/index.ts";
import type { SideProject } from "../services/side/index.ts";

export type Deliver = (pluginId: string, message: OutboundMessage) => Promise<unknown>;
/**
 * "Save to computer" when not controlled. `to.path`: the file to write (a Save as's path, or
 * the project's path since one), null for the port's own default place. It may resolve with
 * where it wrote (a path, a download's file), which the IDE then tells the user.
 */
export type Save = (project: SideProject, to: { path: string | null }) => Promise<void | string>;
/** user.openRecent: the text of the file at `path` (a .side project), or a rejection saying why not. */
export type ReadProject = (path: string) => Promise<string>;
/** `loadVars FILE` (CONTRACT section 22): the data file's rows; rejects with why it cannot be read or parsed. */
export type ReadData = (file: string) => Promise<ReadonlyArray<Readonly<Record<string, unknown>>>>;
export type ResolveLocator = (locator: string) => Promise<string>;
/**
 * Pointing at the page (CONTRACT section 21): arms a pick in the page under test (`true`), or
 * disarms it (`false`). What the pick takes comes back through ide.record, as the recorder's reports do.
 */
export type PickInPage = (arm: boolean) => Promise<void>;

/** The pointing machine's pickInPage actor over the port: armed while it runs, disarmed when it stops; a port that cannot arm says why. */
export function pickInPagePort(pick: PickInPage | undefined) {
  return fromCallback<PickUnavailableEvent, PickInPageInput>(({ sendBack }) => {
    if (!pick) {
      sendBack({ type: "pick.unavailable", problem: "This IDE has no page under test to point at." });
      return () => {};
    }
    let armed = true;
    pick(true).catch((error: unknown) => {
      if (armed) sendBack({ type: "pick.unavailable", problem: `The page under test could not be pointed at: ${messageOf(error)}.` });
    });
    return () => {
      armed = false;
      pick(false).catch(() => {});
    };
  });
}

/**
 * "Find target in page" and the alternative locators' counts (CONTRACT section 21): how many
 * elements `locator` matches in the page under test now, and whether the first has a box there;
 * with `outline`, that first one is outlined in the page for 2 s. Rejects with a LocatorError
 * (or `{ errorCode }`): InvalidLocator, NoPage when no page is open.
 */
export type FindInPage = (locator: string, outline: boolean) => Promise<{ count: number; shown: boolean }>;
/** The browser tab under test (the extension's), or null when there is none. */
export type TabUnderTest = () => Promise<{ id: number } | null>;

/** The browser's ids of the page under test, where there are such (the browser extension). */
export interface PageIds {
  tabId: number | null;
  windowId: number | null;
  frameId: number | null;
}

/**
 * The executor port (`createIde({ executor })`): the page under test. The host gives one over
 * WebDriver, the extension one over the tab under test, tests a fake. `command` comes as
 * written in the .side file; the executor replaces `${...}` from `variables` the way Selenium
 * IDE does for each command (helpers: services/playback/variables.ts).
 */
export interface Executor {
  /** One page command: its state, and the variables it stored (storeText, ...). Rejects only when the page is gone. */
  execute(input: PageCommandInput, signal: AbortSignal): Promise<PageOutcome>;
  /** A condition of if/elseIf/while/repeatIf, as a script whose `arguments` are `argv`; rejects with the reason it could not be evaluated. */
  evaluate(input: ConditionInput, signal: AbortSignal): Promise<boolean>;
  /** The ids that go into a plugin's `execute` options; absent outside a browser. */
  pageIds?(): PageIds;
  /**
   * The test playing with this runId has ended: it sends no more commands, so the page it used
   * (a browser session) may serve another test. createIde calls it once per test that ends; tests
   * of a suite played in order share their run's id and so may find the page as the last left it.
   */
  endRun?(runId: string): void;
}

/** An answer a plugin gives to say no: an object with `error`. */
export const isErrorAnswer = (answer: unknown): answer is { error: unknown } =>
  typeof answer === "object" && answer !== null && "error" in answer;

/** Sends to a plugin and settles with what went wrong, or null when it arrived. */
export async function deliverTo(
  deliver: Deliver | undefined,
  timeoutMs: number,
  to: string,
  message: OutboundMessage,
): Promise<string | null> {
  if (!deliver) return "no channel to plugins is set up (createIde was given no `deliver`)";
  try {
    const answer = await withTimeout(Promise.resolve().then(() => deliver(to, message)), timeoutMs, `the plugin ${to}`);
    return isErrorAnswer(answer) ? `the plugin ${to} answered with an error: ${String(answer.error)}` : null;
  } catch (error) {
    return messageOf(error);
  }
}

/** Sends to a plugin and settles with its answer, or with why there is none (never rejects). */
export async function deliverAndWait(
  deliver: Deliver | undefined,
  timeoutMs: number,
  to: string,
  message: OutboundMessage,
): Promise<Delivery> {
  if (!deliver) return { answered: false, reason: "no channel to plugins is set up (createIde was given no `deliver`)" };
  try {
    const answer = await withTimeout(Promise.resolve().then(() => deliver(to, message)), timeoutMs, `the plugin ${to}`);
    return { answered: true, answer };
  } catch (error) {
    return { answered: false, reason: messageOf(error) };
  }
}

/** The run machine's ports: plugins (events and commands) and the page under test. */
export function runPorts(
  deliver: Deliver | undefined,
  executor: Executor | undefined,
  timeoutMs: number,
  pageTimeoutMs: number,
  warn: (message: string) => void,
  readData?: ReadData,
) {
  // Every wait has a limit: an executor that never answers ends the run `fatal`, saying so.
  const fromPage = <T,>(work: Promise<T>) => withTimeout(work, pageTimeoutMs, "the page under test");
  return {
    tellPlugins: fromPromise<TellPluginsOutput, TellPluginsInput>(async ({ input }) =>
      Promise.all(
        input.plugins.map(async (plugin) => {
          // All of a plugin's messages (a suite's first test: suitePlaybackStarted, then
          // playbackStarted) leave at once, in order, so a run stopped while they are answered
          // never sends one after its playbackStopped; then every answer is awaited.
          const deliveries = await Promise.all(
            input.messages.map(async (message) => {
              const delivery = await deliverAndWait(deliver, timeoutMs, plugin.id, message);
              if (!delivery.answered) warn(`The ${message.event} message to ${plugin.id} was not delivered: ${delivery.reason}.`);
              return delivery;
            }),
          );
          const refusal = deliveries.find((d) => refusesToStart(d) !== null);
          return { pluginId: plugin.id, name: plugin.name, delivery: refusal ?? deliveries[deliveries.length - 1] };
        }),
      ),
    ),
    runPluginCommand: fromPromise<Delivery, PluginCommandInput>(({ input }) => {
      const ids = executor?.pageIds?.();
      const message = ids ? { ...input.message, options: { ...input.message.options, ...ids } } : input.message;
      return deliverAndWait(deliver, timeoutMs, input.pluginId, message);
    }),
    runPageCommand: fromPromise<PageOutcome, PageCommandInput>(async ({ input, signal }) => {
      if (!executor) return { state: "failed", message: NO_PAGE(input.command.command) };
      // Declared locators reach the executor as css=/xpath=, and come back as written (section 23).
      const declared = declaredCommand(input.command, input.variables, input.strategies);
      if (!declared.ok) return { state: "failed", message: declared.message };
      const outcome = await fromPage(executor.execute(declared.written.size > 0 ? { ...input, command: declared.command } : input, signal));
      return asWritten(outcome, declared.written);
    }),
    readData: fromPromise<DataRow[], ReadDataInput>(async ({ input }) => {
      if (!readData) throw new Error(`loadVars cannot read ${JSON.stringify(input.file)}: this IDE has no way to read data files (createIde was given no readData).`);
      return [...(await readData(input.file))];
    }),
    evaluateCondition: fromPromise<boolean, ConditionInput>(async ({ input, signal }) => {
      if (!executor) throw new Error("There is no page under test to evaluate the condition in (createIde was given no executor).");
      return fromPage(executor.evaluate(input, signal));
    }),
  };
}

const NO_PAGE = (command: string) =>
  `${command} needs a page under test, and there is none here (createIde was given no executor).`;

/**
 * The recording machine's port (CONTRACT section 14): commandRecorded to every plugin at once,
 * and the answers in the order they came. A plugin that rejects, answers an error or has not
 * answered within `timeoutMs` gives none; one that could not be reached is a warning.
 */
export const recordingPorts = (deliver: Deliver | undefined, timeoutMs: number, warn: (message: string) => void) => ({
  askPlugins: fromPromise<PluginAnswers, AskPluginsInput>(async ({ input }) => {
    const answers: PluginAnswers["answers"] = [];
    await Promise.all(
      input.plugins.map(async (plugin) => {
        const delivery = await deliverAndWait(deliver, timeoutMs, plugin, input.message);
        if (!delivery.answered) warn(`The commandRecorded message to ${plugin} was not delivered: ${delivery.reason}.`);
        else if (!isErrorAnswer(delivery.answer)) answers.push({ plugin, answer: delivery.answer });
      }),
    );
    return { testId: input.testId, commandId: input.commandId, answers };
  }),
});

/** The project file machine's save port: to the controller while controlled, else `save`. */
export const saveProjectPort = (
  deliver: Deliver | undefined,
  save: Save | undefined,
  timeoutMs: number,
  /** What is saved, made from the project first (the plugins' snapshot: core/emit.ts); never rejects. */
  prepare: (project: SideProject) => Promise<SideProject> = async (project) => project,
) =>
  fromPromise<SaveOutcome, SaveInput>(async ({ input: given }) => {
    const input = { ...given, project: await prepare(given.project) };
    if (input.controller !== null) {
      const problem = await deliverTo(deliver, timeoutMs, input.controller, {
        action: "event",
        event: "saveProject",
        options: { project: input.project },
      });
      return problem === null ? { ok: true } : { ok: false, reason: problem };
    }
    try {
      const location = save ? await save(input.project, { path: input.path }) : undefined;
      return typeof location === "string" && location !== "" ? { ok: true, location } : { ok: true };
    } catch (error) {
      return { ok: false, reason: messageOf(error) };
    }
  });

/**
 * The project file machine's read port (user.openRecent): the file's text through `read`,
 * parsed as a .side project; rejects with why not (no port, unreadable, too large, not JSON,
 * not a usable project).
 */
export const readProjectPort = (read: ReadProject | undefined, maxBytes: number) =>
  fromPromise<SideProject, ReadProjectInput>(async ({ input }) => {
    if (!read) throw new Error("this IDE cannot read project files (createIde was given no readProject)");
    const text = await read(input.path);
    if (typeof text !== "string") throw new Error("the file's text could not be read");
    if (text.length > maxBytes) throw new Error(`it is larger than the ${maxBytes} bytes a project may have`);
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new Error(`it is not JSON (${messageOf(error)})`);
    }
    const parsed = parseSideProject(data);
    if (!parsed.ok) throw new Error(`it is not a usable .side project: ${parsed.problem}`);
    return parsed.project;
  });

/** GET /playback/location: parse first (InvalidLocator before NoPage), then the page. */
export function locatorResolver(document: Document | undefined, port: ResolveLocator | undefined) {
  return async (location: string): Promise<Reply> => {
    try {
      if (!port) return ok(resolveInDocument(document, location));
      parseLocator(location);
      const xpath = await port(location);
      if (typeof xpath !== "string") return fail("ElementNotFound", `The resolver gave no xpath for "${location}".`);
      return ok(xpath);
    } catch (error) {
      const code = (error as { errorCode?: unknown } | null)?.errorCode;
      // A LocatorError, or one that crossed from a page or a tab with its code as data.
      if (isLocatorErrorCode(code)) return fail(code, messageOf(error));
      return fail("ElementNotFound", `The locator "${location}" could not be resolved: ${messageOf(error)}`);
    }
  };
}

const NO_TAB = "No active tab found";

/**
 * GET /record/tab through the `tabUnderTest` port: `{ id }`, or NoPage with the anchor's own
 * text when there is no port (outside the browser extension), no tab, an answer that is not a
 * tab, a rejection, or no answer within `timeoutMs`.
 */
export function tabUnderTestPort(port: TabUnderTest | undefined, timeoutMs: number) {
  return async (): Promise<Reply> => {
    if (!port) return fail("NoPage", NO_TAB);
    try {
      const tab = await withTimeout(Promise.resolve().then(port), timeoutMs, "the tab under test");
      const id = (tab as { id?: unknown } | null)?.id;
      return typeof id === "number" && Number.isInteger(id) ? ok({ id }) : fail("NoPage", NO_TAB);
    } catch {
      return fail("NoPage", NO_TAB);
    }
  };
}
