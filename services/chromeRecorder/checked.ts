// The steps import keeps, remembered. A command keeps its step as the file had it (a frozen
// copy, made here), and before export writes that step again it must know the step still
// passes @puppeteer/replay's parseStep and the command is still the one import made of it. A
// frozen copy cannot change and stepCommand is pure, so what import learnt of it (it passed;
// the command it made under the flow's timeout) holds at export too: export works out again
// only what it has not seen (a project read from a .side file holds new objects).
import { parseStep } from "@puppeteer/replay";
import type { Step } from "@puppeteer/replay";

/** The command import made of a kept step, under the flow timeout it had. */
export interface Made {
  command: string;
  target: string;
  value: string;
  timeout: number | undefined;
}

/** Kept steps parseStep passed, with the command import made of each when it made one. */
const known = new WeakMap<object, { made?: Made }>();

/** A frozen copy of parsed JSON, sharing nothing with it (as a JSON round trip, without the text). */
function frozenCopy(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return typeof value === "function" || typeof value === "symbol" ? undefined : value;
  if (Array.isArray(value)) return Object.freeze(value.map((item) => frozenCopy(item) ?? null));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = frozenCopy((value as Record<string, unknown>)[key]);
    if (item !== undefined) copy[key] = item;
  }
  return Object.freeze(copy);
}

/** A step from a file, checked (parseStep's error thrown as is): its reading, and the frozen copy a command keeps. */
export function readStep(raw: unknown): { step: Step; kept: Record<string, unknown> } {
  const step = parseStep(raw);
  const kept = frozenCopy(raw) as Record<string, unknown>;
  known.set(kept, {});
  return { step, kept };
}

/** Notes the command import made of a step readStep kept. */
export function rememberMade(kept: object, made: Made): void {
  const entry = known.get(kept);
  if (entry) entry.made = made;
}

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null;

/** Whether a kept step is one readStep checked (so it passes parseStep as it is). */
export const wasRead = (kept: unknown): boolean => isObject(kept) && known.has(kept);

/** The command import made of a kept step under the flow timeout `timeout`, if it made one. */
export function madeOf(kept: unknown, timeout: number | undefined): Made | undefined {
  const made = isObject(kept) ? known.get(kept)?.made : undefined;
  return made && made.timeout === timeout ? made : undefined;
}
