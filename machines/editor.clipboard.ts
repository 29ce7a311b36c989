// Commands as a tester handles them in a table (CONTRACT section 20): copy, cut and paste
// (within a test, across tests and projects, or from a .side file's text that the page read
// from the system clipboard), and v3's disabled commands (a `//` before the command's name).
// The editor's clipboard holds copies, not ids, so it outlives the test and the project they
// came from. Every step is planned as in editor.edits.ts: checked here, then an immer recipe.
import { z } from "zod";
import { sideCommandSchema } from "../services/side/index.ts";
import type { SideCommand, SideTest } from "../services/side/index.ts";
import { describeZodIssue } from "../services/validation.ts";
import { editableDisplayed, NO_TEST, displayedTest, refused, unknownCommand } from "./editor.edits.ts";
import type { Display, Planned, PlanResult, Refused } from "./editor.edits.ts";
import type { EditorContext } from "./editor.types.ts";

type Context = Display & Pick<EditorContext, "playing">;

/** v3's form of a disabled command: its name starts with `//`. */
export const DISABLED_PREFIX = "//";

/** A command as the system clipboard may give it: the .side form, its id optional (a paste gives new ids). */
const pastedSchema = z.object({
  commands: z.array(sideCommandSchema.extend({ id: z.string().optional() })).min(1, { message: "must hold at least one command" }),
});

const count = (commands: readonly SideCommand[], verb: string) =>
  commands.length === 1 ? `${verb} command "${commands[0].command}"` : `${verb} ${commands.length} commands`;

/** The displayed test's commands with these ids, in the test's order, with where each sits; or why not. */
function commandsOf(test: SideTest, ids: readonly string[]): { ok: true; at: number[] } | Refused {
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) return refused("InvalidRequest", `The command "${repeated}" is named twice.`);
  const where = new Map(test.commands.map((c, i) => [c.id, i]));
  const unknown = ids.find((id) => !where.has(id));
  if (unknown !== undefined) return refused("UnknownCommand", unknownCommand(test, unknown));
  return { ok: true, at: ids.map((id) => where.get(id)!).sort((a, b) => a - b) };
}

/** Copies of a command for the clipboard or a paste: nothing shared with the project it came from. */
const copyOf = (command: SideCommand): SideCommand => structuredClone(command);

/** Copy: the clipboard's new content (not an edit: the project is as it was). */
export function copyCommands(context: Display, commandIds: readonly string[]): { ok: true; clipboard: SideCommand[] } | Refused {
  const test = displayedTest(context);
  if (!test) return refused("NoTestSelected", NO_TEST);
  const picked = commandsOf(test, commandIds);
  if (!picked.ok) return picked;
  return { ok: true, clipboard: picked.at.map((i) => copyOf(test.commands[i])) };
}

/** Cut: a copy as Copy makes, and the commands removed in one edit; the selection moves to the command after them (else before). */
export function planCut(context: Context, commandIds: readonly string[]): (Planned & { clipboard: SideCommand[] }) | Refused {
  const shown = editableDisplayed(context);
  if (!shown.ok) return shown;
  const { test, at: testAt } = shown;
  const picked = commandsOf(test, commandIds);
  if (!picked.ok) return picked;
  const cut = new Set(picked.at);
  const first = picked.at[0];
  const after = test.commands.find((_, i) => i > first && !cut.has(i));
  const before = test.commands.slice(0, first).at(-1);
  const clipboard = picked.at.map((i) => copyOf(test.commands[i]));
  return {
    ok: true,
    clipboard,
    edit: {
      label: count(clipboard, "Cut"),
      recipe: (p) => {
        const list = p.tests[testAt].commands;
        for (const i of [...picked.at].reverse()) list.splice(i, 1);
      },
    },
    place: { selectedCommandId: (after ?? before)?.id ?? null },
  };
}

/**
 * Paste: copies with new ids after `afterCommandId`, else after the selected command, else at the
 * end of the displayed test; from `commands` (the system clipboard's .side commands) when given,
 * else from the editor's clipboard. The last pasted becomes the selection.
 */
export function planPaste(context: Context, event: { afterCommandId?: string; commands?: unknown[] }, clipboard: readonly SideCommand[]): PlanResult {
  const shown = editableDisplayed(context);
  if (!shown.ok) return shown;
  const { test, at: testAt } = shown;
  let source: readonly SideCommand[];
  if (event.commands !== undefined) {
    // Parsed under its name, so a problem reads "commands[0].command is missing".
    const parsed = pastedSchema.safeParse({ commands: event.commands }, { reportInput: true });
    if (!parsed.success) {
      return refused("InvalidRequest", `What was pasted is not .side commands: ${describeZodIssue(parsed.error, "commands")}.`);
    }
    source = parsed.data.commands as SideCommand[];
  } else {
    if (clipboard.length === 0) return refused("InvalidRequest", "There is nothing to paste: copy or cut commands first.");
    source = clipboard;
  }
  let at: number;
  if (event.afterCommandId !== undefined) {
    at = test.commands.findIndex((c) => c.id === event.afterCommandId) + 1;
    if (at === 0) return refused("UnknownCommand", unknownCommand(test, event.afterCommandId));
  } else {
    const selectedAt = test.commands.findIndex((c) => c.id === context.selectedCommandId);
    at = selectedAt >= 0 ? selectedAt + 1 : test.commands.length;
  }
  const pasted = source.map((c): SideCommand => ({ ...copyOf(c), id: globalThis.crypto.randomUUID() }));
  return {
    ok: true,
    edit: { label: count(pasted, "Paste"), recipe: (p) => void p.tests[testAt].commands.splice(at, 0, ...pasted) },
    place: { selectedCommandId: pasted[pasted.length - 1].id },
  };
}

/** Disable or enable: each command's `//` is added or taken away, in one edit. */
export function planToggleDisabled(context: Context, commandIds: readonly string[]): PlanResult {
  const shown = editableDisplayed(context);
  if (!shown.ok) return shown;
  const { test, at: testAt } = shown;
  const picked = commandsOf(test, commandIds);
  if (!picked.ok) return picked;
  const commands = picked.at.map((i) => test.commands[i]);
  const disabled = commands.filter((c) => c.command.startsWith(DISABLED_PREFIX)).length;
  const verb = disabled === 0 ? "Disable" : disabled === commands.length ? "Enable" : "Disable or enable";
  return {
    ok: true,
    edit: {
      label: count(commands, verb),
      recipe: (p) => {
        for (const i of picked.at) {
          const command = p.tests[testAt].commands[i];
          command.command = command.command.startsWith(DISABLED_PREFIX)
            ? command.command.slice(DISABLED_PREFIX.length)
            : `${DISABLED_PREFIX}${command.command}`;
        }
      },
    },
  };
}
