// The project's recording settings (CONTRACT section 18), kept as top-level fields of the .side
// file that Selenium IDE v3 and v4 do not read (they keep to the fields they know):
// - `locatorOrder`: builder names, the order of recorded `targets` (the first is the target);
//   a builder it leaves out comes after those it names, in the default order. It may name a
//   declared locator strategy with an `attribute` (CONTRACT section 23), whose builder gives
//   `NAME=VALUE`; one it leaves out comes right after the test-id builders;
// - `testIdAttributes`: the attributes the test-id builder tries, in order.
// A project without them records with the defaults. Checked at the door: a name that is neither
// a builder's nor can be a strategy's (`css:magic`, `Qa`, `xpath`), a name twice or an attribute
// name no page can have is refused with its path. Whether a strategy's name is declared is not
// the file's to say: the plugins that declare it register later, and a project carries only the
// declarations its commands use. So the name is kept, and the recorder leaves it out until a
// declaration with an attribute is known (the project's `locatorStrategies` or a plugin's).
import { z } from "zod";
import { BUILDER_NAMES, DEFAULT_TEST_ID_ATTRIBUTES, fullLocatorOrder } from "../locators/builderNames.ts";
import { BUILT_IN } from "../locators/templates.ts";
import type { StrategyDeclaration } from "../locators/templates.ts";

const noRepeats = <T>(list: readonly T[]) => new Set(list).size === list.length;

const builders = new Set<string>(BUILDER_NAMES);
/** A builder's name, or one a declared strategy can have (strategies.ts: lowercase letters, digits and -, not built in). */
const isOrderName = (name: string) => builders.has(name) || (/^[a-z0-9-]{1,64}$/.test(name) && !BUILT_IN.has(name));

export const locatorOrderSchema = z
  .array(
    z.string().refine(isOrderName, {
      error: `must be a builder name (one of ${BUILDER_NAMES.join(", ")}) or a declared locator strategy's name (lowercase letters, digits and -)`,
    }),
  )
  // Every builder, and as many strategies as a project may declare.
  .max(BUILDER_NAMES.length + 100)
  .refine(noRepeats, { message: "must name each builder once" });

const ATTRIBUTE_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;
export const testIdAttributesSchema = z
  .array(z.string().max(100).regex(ATTRIBUTE_NAME, { message: "must be an attribute name (a letter, then letters, digits, -, _, . or :)" }))
  .max(20)
  .refine(noRepeats, { message: "must name each attribute once" });

/** The settings the recorder takes: the project's, or the defaults where it has none. */
export interface RecordingSettings {
  /** Every builder, and every strategy of `strategies`, once. */
  locatorOrder: string[];
  testIdAttributes: string[];
  /** The declared locator strategies the recorder can build (those with an `attribute`). */
  strategies: StrategyDeclaration[];
}

interface SettingsOf {
  locatorOrder?: readonly string[];
  testIdAttributes?: readonly string[];
  locatorStrategies?: readonly StrategyDeclaration[];
}

/**
 * The project's recording settings, every builder named: those its order leaves out after it, in
 * the default order. `strategies` are those declared now (default: the project's own; the IDE
 * gives its table, the project's with the plugins' over them): each with an attribute is a
 * builder, placed where the order names it, else right after the test-id builders.
 */
export function recordingSettings(project: SettingsOf, strategies: Iterable<StrategyDeclaration> = project.locatorStrategies ?? []): RecordingSettings {
  const recordable = [...strategies].filter((d) => d.attribute !== undefined && !builders.has(d.name)).map(({ name, css, xpath, attribute }) => ({ name, ...(css !== undefined ? { css } : { xpath }), attribute }));
  return {
    locatorOrder: fullLocatorOrder(project.locatorOrder, recordable.map((d) => d.name)),
    testIdAttributes: [...(project.testIdAttributes ?? DEFAULT_TEST_ID_ATTRIBUTES)],
    strategies: recordable,
  };
}
