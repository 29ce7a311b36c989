// The IDE's own commands (CONTRACT section 9): what they mean, without doing any of it. The
// run machine invokes them as its `runIdeCommand` actor and applies the outcome; waiting
// (`pause`) is an XState delay there, and `run` pushes a frame there.
import { MAX_DELAY_MS } from "./delay.ts";
import type { FlowStep } from "./flow.ts";
import { interpolate, readVariable } from "./variables.ts";
import type { VariableValues } from "./variables.ts";
import { messageOf } from "../errors.ts";

export const IDE_COMMANDS: ReadonlySet<string> = new Set(["store", "storeJson", "echo", "pause", "setSpeed", "run"]);

export interface IdeStepInput {
  step: FlowStep;
  variables: VariableValues;
  /** How often this loop has turned so far (loops only). */
  visits: number;
}

/** What an IDE command or control-flow step decided; the machine applies it. */
export interface IdeOutcome {
  ok: boolean;
  /** Why not, when !ok: the command is `failed` with this message. */
  message?: string;
  /** For a branch: whether its condition held. */
  holds?: boolean;
  /** Variables to set. */
  set?: Record<string, unknown>;
  /** `echo`: a playback log entry. */
  log?: string;
  /** `setSpeed`: the run's new delay between commands. */
  delayMs?: number;
  /** `pause`: how long to wait before going on. */
  sleepMs?: number;
  /** `run`: the name of the test to play next, sharing variables. */
  call?: string;
}

const fail = (message: string): IdeOutcome => ({ ok: false, message });

function milliseconds(text: string, what: string, max: number): number | string {
  const ms = Number(text);
  if (text.trim() === "" || !Number.isFinite(ms) || ms < 0) return `${what} needs a number of milliseconds as its target, not "${text}"`;
  return Math.min(Math.floor(ms), max);
}

export function runIdeStep({ step, variables, visits }: IdeStepInput): IdeOutcome {
  const { command, target, value } = step.command;
  switch (step.kind) {
    case "times": {
      const n = Math.floor(Number(interpolate(target, variables)));
      if (Number.isNaN(n)) return fail("Invalid number provided as a target.");
      return { ok: true, holds: visits < n };
    }
    case "forEach": {
      const name = interpolate(target, variables);
      const collection = readVariable(variables, name).value;
      if (!Array.isArray(collection)) return fail(`Invalid variable provided: ${name} is not an array.`);
      const holds = visits < collection.length;
      const iterator = interpolate(value, variables);
      return holds ? { ok: true, holds, set: { [iterator]: collection[visits] } } : { ok: true, holds };
    }
    case "jump":
    case "break":
    case "skip":
      return { ok: true };
    default:
      break;
  }
  switch (command) {
    case "store":
      if (!value) return fail("store needs a variable name as its value");
      return { ok: true, set: { [value]: interpolate(target, variables) } };
    case "storeJson": {
      if (!value) return fail("storeJson needs a variable name as its value");
      try {
        return { ok: true, set: { [value]: JSON.parse(interpolate(target, variables)) } };
      } catch (error) {
        return fail(`storeJson: the target is not JSON (${messageOf(error)})`);
      }
    }
    case "echo":
      return { ok: true, log: interpolate(target, variables) };
    case "setSpeed": {
      const ms = milliseconds(interpolate(target, variables), "setSpeed", MAX_DELAY_MS);
      return typeof ms === "string" ? fail(ms) : { ok: true, delayMs: ms };
    }
    case "pause": {
      const ms = milliseconds(interpolate(target || "0", variables), "pause", Number.MAX_SAFE_INTEGER);
      return typeof ms === "string" ? fail(ms) : { ok: true, sleepMs: Math.min(ms, 2_147_483_647) };
    }
    case "run": {
      const name = interpolate(target, variables);
      return name ? { ok: true, call: name } : fail("run needs the name of a test as its target");
    }
    default:
      return fail(`${command} is not one of the IDE's own commands`);
  }
}
