// Commands on the system clipboard, as Selenium IDE's .side file writes them: a JSON array of
// commands (`{ id, comment, command, target, targets, value }`), so steps copied here paste
// into another project, and steps copied out of a .side file's text paste here. Pure: what
// the clipboard holds is read and written by the table; whether the commands make sense in
// the test is the IDE's call, which names what is wrong.
import type { CommandOutline } from "./protocol.ts";

/** The commands as the text the clipboard gets: a .side file's `commands` array. */
export function sideCommandsText(commands: readonly CommandOutline[]): string {
  const side = commands.map((c) => ({ id: c.id, comment: c.comment ?? "", command: c.command, target: c.target, targets: [], value: c.value }));
  return JSON.stringify(side, null, 2);
}

/**
 * The .side commands a clipboard text holds, or null when it holds none: a JSON array of
 * objects that each name a `command` (a whole .side test, `{ commands: [...] }`, gives its
 * commands). Anything else (plain text, an empty array, a command without a name) is null, and
 * the IDE's own clipboard is pasted instead.
 */
export function readSideCommands(text: string): unknown[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) && Array.isArray((parsed as { commands?: unknown }).commands)) {
    parsed = (parsed as { commands: unknown[] }).commands;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return null;
  const named = (c: unknown) => typeof c === "object" && c !== null && typeof (c as { command?: unknown }).command === "string";
  return parsed.every(named) ? parsed : null;
}
