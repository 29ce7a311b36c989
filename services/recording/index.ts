// What a recording decides from plain data (CONTRACT section 14): the selectFrame steps between
// two frames, the open command's target, and a plugin's answer to commandRecorded. Pure; the
// recording machine (machines/recording.machine.ts) calls these.
import { z } from "zod";

/** A frame of the tab under test: its index in window.frames at each level from the top; [] is the top. */
export type FramePath = readonly number[];

/** A recorded command's alternatives: `[locator, builderName]`, or `[locator]` where there is no builder (selectFrame). */
export type RecordedTargets = Array<[string, string] | [string]>;

/** Beside a FramePath, each level's frame element locator `[locator, builder]`, or null where it has none. */
export type FrameTargets = ReadonlyArray<readonly [string, string] | null>;

/**
 * The selectFrame steps that go from frame `from` to frame `to`, each as its targets (the first
 * is the target), as v3 records them before the first command done in another frame:
 * `relative=top` back to the top, else `relative=parent` up to the frames' common ancestor,
 * then one step down per level of `to` (CONTRACT section 19): the frame element's locator
 * from `locators` when the recorder found one (`id=payment`), with `index=N` as its fallback,
 * else `index=N` alone (N is the frame's index in its parent's window.frames).
 */
export function frameSteps(from: FramePath, to: FramePath, locators: FrameTargets = []): RecordedTargets[] {
  if (sameFrame(from, to)) return [];
  if (to.length === 0) return [[["relative=top"]]];
  let common = 0;
  while (common < from.length && common < to.length && from[common] === to[common]) common++;
  const up: RecordedTargets[] = Array.from({ length: from.length - common }, () => [["relative=parent"]]);
  const down = to.slice(common).map((index, i): RecordedTargets => {
    const located = locators[common + i];
    return located ? [[located[0], located[1]], [`index=${index}`]] : [[`index=${index}`]];
  });
  return [...up, ...down];
}

export const sameFrame = (a: FramePath, b: FramePath): boolean => a.length === b.length && a.every((n, i) => n === b[i]);

/**
 * `open`'s target for the page at `pageUrl`: its path and query, which Selenium opens against
 * the project's url; the whole url when the page is on another origin than the project's, so
 * the test still goes where it was recorded. Null when `pageUrl` is not an http(s) url.
 */
export function openTarget(pageUrl: string, projectUrl: string): string | null {
  const page = httpUrl(pageUrl);
  if (!page) return null;
  const base = httpUrl(projectUrl);
  return !base || base.origin === page.origin ? page.pathname + page.search : page.href;
}

/** The project's url a recording sets when the project has none: the page's origin. */
export function projectUrlFrom(pageUrl: string): string | null {
  return httpUrl(pageUrl)?.origin ?? null;
}

function httpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

const targetsSchema = z.array(z.union([z.tuple([z.string(), z.string()]), z.tuple([z.string()])]));

const mutationSchema = z.discriminatedUnion("mutation", [
  z.object({ mutation: z.literal("delete") }),
  z.object({
    mutation: z.literal("update"),
    command: z.string(),
    target: z.string(),
    value: z.string(),
    targets: targetsSchema.optional(),
  }),
]);

export type Mutation = z.infer<typeof mutationSchema>;

/**
 * A plugin's answer to commandRecorded: a mutation, `"none"` when it asks for none (an error
 * answer, `true`, anything without `mutation`), or `"invalid"` when it names a mutation with
 * fields of the wrong types, which is ignored.
 */
export function readMutation(answer: unknown): Mutation | "none" | "invalid" {
  try {
    if (typeof answer !== "object" || answer === null || "error" in answer || !("mutation" in answer)) return "none";
    const parsed = mutationSchema.safeParse(answer);
    return parsed.success ? parsed.data : "invalid";
  } catch {
    return "invalid"; // a hostile getter
  }
}
