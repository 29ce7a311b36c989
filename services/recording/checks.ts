// The checks a user records by pointing at the page (CONTRACT section 21), as plain data: their
// names as the page panel shows them, the command each records from the element pointed at, and
// the variable a store* names (text1, value1, ...: the next name the test does not use yet).
// Pure; the pointing machine (machines/pointing.machine.ts) calls these.
import type { RecordedTargets } from "./index.ts";

/** The checks, in the order the page panel shows them, with the buttons' names. */
export const CHECKS = [
  { command: "assertText", label: "Assert text" },
  { command: "assertValue", label: "Assert value" },
  { command: "assertTitle", label: "Assert title" },
  { command: "assertElementPresent", label: "Assert element present" },
  { command: "assertChecked", label: "Assert checked" },
  { command: "storeText", label: "Store text" },
  { command: "storeValue", label: "Store value" },
  { command: "waitForElementVisible", label: "Wait for element visible" },
] as const;

export type CheckCommand = (typeof CHECKS)[number]["command"];
export const CHECK_COMMANDS = CHECKS.map((c) => c.command) as unknown as readonly [CheckCommand, ...CheckCommand[]];

/** How long a recorded waitForElementVisible waits, as the recorder's own waits do (ms). */
export const CHECK_WAIT_MS = 30_000;

/** What the page told of the element pointed at (drivers/recorder/pick.ts's PickedElement), as the core reads it. */
export interface PickedFacts {
  target: string;
  targets: RecordedTargets;
  fingerprint?: unknown;
  text: string;
  value: string | null;
  title: string;
  checked: boolean | null;
  tag: string;
}

/** A check as it is recorded, and what the user should know of it (a value that cannot hold, say). */
export interface CheckRecorded {
  command: CheckCommand;
  target: string;
  targets: RecordedTargets;
  value: string;
  /** Absent for assertTitle, whose target is no element. */
  withElement: boolean;
  warning: string | null;
}

/** The commands whose value names a variable they store (v3's store commands and the scripts that store). */
const STORES = /^(store\w*|executeScript|executeAsyncScript)$/;

/** The variables the test's commands store, by name. */
export function storedVariables(commands: ReadonlyArray<{ command: string; value: string }>): string[] {
  return commands.filter((c) => STORES.test(c.command) && c.value !== "").map((c) => c.value);
}

/** `prefix1`, `prefix2`, ...: the first that is not taken. */
export function nextVariableName(prefix: string, taken: readonly string[]): string {
  const used = new Set(taken);
  let n = 1;
  while (used.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

/**
 * The command `check` records for the element pointed at: its target and `targets` as a click's
 * (assertTitle: the page's title), and its value: the text as getText reads it, the field's
 * value, the variable a store names (the next free one among `taken`), the wait's time.
 */
export function checkCommand(check: CheckCommand, picked: PickedFacts, taken: readonly string[]): CheckRecorded {
  const on = { target: picked.target, targets: picked.targets, withElement: true };
  const element = `the <${picked.tag}> pointed at (${picked.target})`;
  switch (check) {
    case "assertText":
    case "storeText": {
      const warning = picked.text === "" ? `${element} has no visible text: ${check} was recorded with an empty text.` : null;
      return { command: check, ...on, value: check === "assertText" ? picked.text : nextVariableName("text", taken), warning };
    }
    case "assertValue":
    case "storeValue": {
      const warning = picked.value === null ? `${element} has no value (it is no field): ${check} was recorded with an empty value.` : null;
      return { command: check, ...on, value: check === "assertValue" ? (picked.value ?? "") : nextVariableName("value", taken), warning };
    }
    case "assertTitle":
      return {
        command: check,
        target: picked.title,
        targets: [],
        value: "",
        withElement: false,
        warning: picked.title === "" ? "The page has no title: assertTitle was recorded with an empty title." : null,
      };
    case "assertChecked": {
      const warning =
        picked.checked === null
          ? `${element} is not a checkbox or radio button: assertChecked on it fails when played.`
          : picked.checked
            ? null
            : `${element} is not checked now: the assertChecked recorded fails unless the test checks it first.`;
      return { command: check, ...on, value: "", warning };
    }
    case "assertElementPresent":
      return { command: check, ...on, value: "", warning: null };
    case "waitForElementVisible":
      return { command: check, ...on, value: String(CHECK_WAIT_MS), warning: null };
  }
}
