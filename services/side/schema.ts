import { z } from "zod";
import { describeZodIssue, nonEmptyString, refuseDuplicateIds } from "../validation.ts";
import { locatorOrderSchema, testIdAttributesSchema } from "./settings.ts";
import { dataFilesSchema } from "./dataFiles.ts";
import { locatorStrategiesSchema } from "./strategies.ts";

// Ids are keys (playback addresses commands by id, plugins name tests by id), so an
// empty id is refused; names and command texts are only shown, so "" is allowed.
const id = nonEmptyString;

// Loose objects everywhere: fields this core does not read are kept as they came,
// so a project saved back gives them back.
export const sideCommandSchema = z.looseObject({
  id,
  command: z.string(),
  target: z.string().default(""),
  value: z.string().default(""),
});

export const sideTestSchema = z
  .looseObject({ id, name: z.string(), commands: z.array(sideCommandSchema) })
  .superRefine((test, ctx) => refuseDuplicateIds(test.commands, "commands", ctx));

export const sideProjectSchema = z
  .looseObject({
    id,
    name: z.string(),
    version: z.string().default(""),
    url: z.string().default(""),
    tests: z.array(sideTestSchema),
    // Not read by the core: only their container type is checked.
    suites: z.array(z.unknown()).default(() => []),
    urls: z.array(z.unknown()).default(() => []),
    plugins: z.array(z.unknown()).default(() => []),
    // CONTRACT section 18: false makes a healed command fail (Selenium IDE ignores the field).
    heal: z.boolean().optional(),
    // The recording settings (settings.ts, CONTRACT section 18); absent: the defaults.
    locatorOrder: locatorOrderSchema.optional(),
    testIdAttributes: testIdAttributesSchema.optional(),
    // CONTRACT section 22: the data files loadVars reads when the disk has none (dataFiles.ts).
    dataFiles: dataFilesSchema.optional(),
    // CONTRACT section 23: the plugins' locator strategies its commands use, so it plays without them.
    locatorStrategies: locatorStrategiesSchema.optional(),
  })
  .superRefine((project, ctx) => refuseDuplicateIds(project.tests, "tests", ctx));

export type SideProject = z.infer<typeof sideProjectSchema>;
export type SideTest = z.infer<typeof sideTestSchema>;
export type SideCommand = z.infer<typeof sideCommandSchema>;

export type SideParseResult = { ok: true; project: SideProject } | { ok: false; problem: string };

const NOT_JSON = "project must be plain JSON data (readable fields, no cycles, not nested too deeply)";

/**
 * A usable `.side` project, or the first problem as a sentence naming its path.
 * Never throws. The input goes through JSON first: a `.side` project is JSON, so
 * the result is plain data detached from the caller's objects (getters run once,
 * cycles and over-deep nesting are refused here rather than when saving).
 * Own `__proto__` keys of the known objects are dropped by zod, never assigned.
 */
export function parseSideProject(input: unknown): SideParseResult {
  let data: unknown;
  try {
    if (typeof input !== "object" || input === null || Array.isArray(input)) return parseData(input);
    const text = JSON.stringify(input);
    data = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return { ok: false, problem: NOT_JSON };
  }
  return parseData(data);
}

function parseData(data: unknown): SideParseResult {
  try {
    const result = sideProjectSchema.safeParse(data, { reportInput: true });
    if (result.success) return { ok: true, project: result.data };
    return { ok: false, problem: describeZodIssue(result.error, "project") };
  } catch {
    return { ok: false, problem: NOT_JSON };
  }
}

// A new project has no tests: the IDE records into it, and playback of an empty
// project simply has nothing to start.
export function untitledProject(): SideProject {
  return {
    id: globalThis.crypto.randomUUID(),
    version: "2.0",
    name: "Untitled project",
    url: "",
    tests: [],
    suites: [],
    urls: [],
    plugins: [],
  };
}
