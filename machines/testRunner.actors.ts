// The test runner's actors as the machine knows them: the IDE's own commands, which are pure
// and the same everywhere, and stand-ins for the ports that adapters provide (index.ts gives
// the suite runner's `testRunner` actor `testRunnerMachine.provide({ actors: runPorts(...) })`).
// The stand-ins say plainly that nothing is set up, so a run without ports still ends.
import { fromPromise } from "xstate";
import { runIdeStep } from "../services/playback/ideCommands.ts";
import type { IdeOutcome, IdeStepInput } from "../services/playback/ideCommands.ts";
import type { Delivery } from "../services/playback/pluginAnswer.ts";
import type { ConditionInput, DataRow, PageCommandInput, PageOutcome, PluginCommandInput, ReadDataInput, TellPluginsInput, TellPluginsOutput } from "./testRunner.types.ts";

const NO_PAGE = "There is no page under test here (createIde was given no executor), so page commands cannot run.";
const NO_CHANNEL: Delivery = { answered: false, reason: "no channel to plugins is set up" };

/** Tells every plugin of a test's (or a suite's) start or end and waits for each answer (bounded); adapters provide it. */
export const tellPlugins = fromPromise<TellPluginsOutput, TellPluginsInput>(async ({ input }) =>
  input.plugins.map((p) => ({ pluginId: p.id, name: p.name, delivery: NO_CHANNEL })),
);

export const testRunnerActors = {
  /** The IDE's own commands and control flow: pure, the same everywhere. */
  runIdeCommand: fromPromise<IdeOutcome, IdeStepInput>(async ({ input }) => runIdeStep(input)),
  /** Delivers `execute` to the plugin that owns the command; adapters provide it. */
  runPluginCommand: fromPromise<Delivery, PluginCommandInput>(async () => NO_CHANNEL),
  /** A page command through the executor port; adapters provide it. */
  runPageCommand: fromPromise<PageOutcome, PageCommandInput>(async () => ({ state: "failed", message: NO_PAGE })),
  /** A condition (if, while, ...) in the page under test; adapters provide it. */
  evaluateCondition: fromPromise<boolean, ConditionInput>(async () => {
    throw new Error(NO_PAGE);
  }),
  /** `loadVars`: its data file's rows, read and parsed by the host; adapters provide it. */
  readData: fromPromise<DataRow[], ReadDataInput>(async ({ input }) => {
    throw new Error(`loadVars cannot read ${JSON.stringify(input.file)}: no data files can be read here (createIde was given no readData).`);
  }),
  tellPlugins,
};

/** The event itself, as a named action's or guard's params (its type is narrowed where the params are given). */
export const theEvent = <T,>({ event }: { event: T }): T => event;
/** An invoked actor's output, from its done event. */
export const output = <T,>({ event }: { event: { output: T } }): T => event.output;
/** An invoked actor's error, from its error event. */
export const error = ({ event }: { event: { error: unknown } }): unknown => event.error;
