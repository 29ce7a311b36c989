// The project's recording settings (CONTRACT section 18), kept as top-level fields of the .side
// file that Selenium IDE v3 and v4 do not read (they keep to the fields they know):
// - `locatorOrder`: builder names, the order of recorded `targets` (the first is the target);
//   a builder it leaves out comes after those it names, in the default order;
// - `testIdAttributes`: the attributes the test-id builder tries, in order.
// A project without them records with the defaults. Checked at the door: an unknown builder
// name, a name twice or an attribute name no page can have is refused with its path.
import { z } from "zod";
import { BUILDER_NAMES, DEFAULT_LOCATOR_ORDER, DEFAULT_TEST_ID_ATTRIBUTES } from "../locators/builderNames.ts";
import type { BuilderName } from "../locators/builderNames.ts";

const noRepeats = <T>(list: readonly T[]) => new Set(list).size === list.length;

export const locatorOrderSchema = z
  .array(z.enum(BUILDER_NAMES as [BuilderName, ...BuilderName[]], { error: `must be a builder name: one of ${BUILDER_NAMES.join(", ")}` }))
  .max(BUILDER_NAMES.length)
  .refine(noRepeats, { message: "must name each builder once" });

const ATTRIBUTE_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;
export const testIdAttributesSchema = z
  .array(z.string().max(100).regex(ATTRIBUTE_NAME, { message: "must be an attribute name (a letter, then letters, digits, -, _, . or :)" }))
  .max(20)
  .refine(noRepeats, { message: "must name each attribute once" });

/** The settings the recorder takes: the project's, or the defaults where it has none. */
export interface RecordingSettings {
  locatorOrder: BuilderName[];
  testIdAttributes: string[];
}

/** The project's recording settings, every builder named: those its order leaves out after it, in the default order. */
export function recordingSettings(project: { locatorOrder?: readonly string[]; testIdAttributes?: readonly string[] }): RecordingSettings {
  const named = (project.locatorOrder ?? []).filter((name): name is BuilderName => (BUILDER_NAMES as readonly string[]).includes(name));
  return {
    locatorOrder: [...named, ...DEFAULT_LOCATOR_ORDER.filter((name) => !named.includes(name))],
    testIdAttributes: [...(project.testIdAttributes ?? DEFAULT_TEST_ID_ATTRIBUTES)],
  };
}
