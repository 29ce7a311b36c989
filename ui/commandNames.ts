// The command names the test editor offers: Selenium IDE's own commands, with their
// descriptions and what their target and value mean (read from @seleniumhq/side-model, the
// list Selenium IDE itself uses, so a name here is a name side-runtime plays), followed by the
// commands the registered plugins declared, with their `docs`. Pure: the editor's combobox,
// its help line and the unit tests read the same list.
import sideModelCommands from "@seleniumhq/side-model/dist/Commands.js";
import type { UiView } from "./protocol.ts";

/** One name the editor offers. */
export interface CommandChoice {
  /** What goes into the command field and the .side file: `assertText`, `eyesCheckWindow`. */
  id: string;
  /** How a person reads it: `assert text`, or the plugin's own name for its command. */
  name: string;
  description: string | null;
  /** What the target is for (`locator: The location of an element…`), or null when the command takes none or does not say. */
  target: string | null;
  value: string | null;
  /** "Selenium IDE", or the plugin's name. */
  source: string;
}

interface ArgType {
  name: string;
  description: string;
}
interface SideModelCommand {
  name: string;
  description: string;
  target?: ArgType;
  value?: ArgType;
}

// side-model is CommonJS with `exports.default`: a bundler hands over the table itself, Node's
// own loader the module object around it.
const table = ((sideModelCommands as unknown as { default?: Record<string, SideModelCommand> }).default ??
  sideModelCommands) as Record<string, SideModelCommand>;

/** Newlines and indentation of the source's template strings, as one line of text. */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
const argument = (arg: ArgType | undefined) => (arg ? `${arg.name}: ${oneLine(arg.description)}` : null);

/**
 * Katalon Recorder's data commands (CONTRACT section 22), which the IDE plays itself: side-model
 * has no entry for them, so they are described here, in its words' form.
 */
const DATA_COMMANDS: Record<string, SideModelCommand> = {
  loadVars: {
    name: "load vars",
    description: "Plays the commands up to its endLoadVars once per row of a data file, each row's columns (or keys) as variables.",
    target: { name: "data file", description: "A .csv file with a header row, or a .json array of objects; a relative path is read from --files DIR, then beside the .side file." },
  },
  endLoadVars: { name: "end load vars", description: "Ends the block of a loadVars: the next row plays it again; after the last row, the test goes on." },
};

/** Selenium IDE's commands and the data commands, in alphabetical order of their ids. */
export const SELENIUM_COMMANDS: readonly CommandChoice[] = Object.freeze(
  Object.entries({ ...table, ...DATA_COMMANDS })
    .map(([id, c]) => ({
      id,
      name: c.name,
      description: oneLine(c.description),
      target: argument(c.target),
      value: argument(c.value),
      source: "Selenium IDE",
    }))
    .sort((a, b) => a.id.localeCompare(b.id)),
);

/**
 * Every name the editor offers: Selenium IDE's, then each registered plugin's in the order the
 * plugins registered. A plugin command that has a Selenium IDE command's id replaces nothing:
 * both are listed, each saying where it comes from.
 */
export function commandChoices(plugins: UiView["plugins"]): CommandChoice[] {
  const fromPlugins = plugins.flatMap((plugin) =>
    (plugin.commands ?? []).map((command) => ({
      id: command.id,
      name: command.name,
      description: command.docs?.description ?? null,
      target: command.docs?.target ?? null,
      value: command.docs?.value ?? null,
      source: plugin.name,
    })),
  );
  return [...SELENIUM_COMMANDS, ...fromPlugins];
}

/** What the editor says about the command in its field: the first choice with that id, or null for a name nobody offers. */
export function findChoice(choices: readonly CommandChoice[], id: string): CommandChoice | null {
  const wanted = id.trim();
  return choices.find((choice) => choice.id === wanted) ?? null;
}

/** A choice as its option in the combobox reads: `assert text — Confirm that …`. */
export function choiceLabel(choice: CommandChoice): string {
  const who = choice.source === "Selenium IDE" ? choice.name : `${choice.name} (${choice.source})`;
  return choice.description ? `${who} — ${choice.description}` : who;
}

