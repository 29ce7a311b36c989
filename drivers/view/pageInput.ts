// The user's input on the page panel's picture (a `page.input` message, messages.ts), read at
// the door with zod: a click or double click at a point of the page's viewport, text typed, a
// key, or a turn of the mouse wheel at a point (its deltas in CSS pixels). Anything else is not
// an input and changes nothing. A wheel turns fast (a touchpad sends 60 events a second), so
// wheels waiting their turn are merged into one (mergeWheels): the page scrolls as far, with
// fewer messages to the browser. Bundled into browser pages too: no Node here.
import { z } from "zod";
import type { PageInput } from "./messages.ts";

/** A point of the page's viewport, in CSS pixels. */
const coordinate = z.number().finite().min(0).max(100_000);
/** How far one wheel message scrolls at most, either way (the merged ones too). */
export const MAX_WHEEL_DELTA = 10_000;
const delta = z.number().finite().min(-MAX_WHEEL_DELTA).max(MAX_WHEEL_DELTA);

const pageInputSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("click"), x: coordinate, y: coordinate, double: z.boolean().optional() }),
  z.object({ kind: z.literal("type"), text: z.string().min(1).max(10_000) }),
  z.object({ kind: z.literal("key"), key: z.string().min(1).max(40) }),
  z.object({ kind: z.literal("wheel"), x: coordinate, y: coordinate, deltaX: delta, deltaY: delta }),
]);

export type WheelInput = Extract<PageInput, { kind: "wheel" }>;

/** The input a `page.input` message carries, checked; null when it is not one. */
export function pageInputOf(message: { type: string; [field: string]: unknown }): PageInput | null {
  if (message.type !== "page.input") return null;
  const parsed = pageInputSchema.safeParse(message.input);
  if (!parsed.success) return null;
  const input = parsed.data;
  return input.kind === "click" ? { kind: "click", x: input.x, y: input.y, double: input.double === true } : input;
}

const clamp = (n: number) => Math.min(MAX_WHEEL_DELTA, Math.max(-MAX_WHEEL_DELTA, n));

/** Two turns of the wheel as one: at the later one's point, as far as both together (within the bound). */
export function mergeWheels(earlier: WheelInput, later: WheelInput): WheelInput {
  return { kind: "wheel", x: later.x, y: later.y, deltaX: clamp(earlier.deltaX + later.deltaX), deltaY: clamp(earlier.deltaY + later.deltaY) };
}
