// Declared locators in exported code (CONTRACT section 23): the packages know Selenium's
// strategies only, so each locator a command hands them goes through `expandLocator` first and a
// declared `NAME=VALUE` is written as `By.css`/`By.xpath` of its filled template, in every
// language alike. Which fields are locators is side-model's own word (a command's target or
// value of a locator type), so a text that merely looks like `NAME=VALUE` (an echo, a typed
// value) is left as written. A `NAME=` no declaration covers refuses the export, naming NAME and
// the command, rather than writing code that cannot find anything.
import * as sideModel from "@seleniumhq/side-model";
import type { CommandShape } from "@seleniumhq/side-model";
import { declaredName, expandLocator } from "../locators/templates.ts";
import type { StrategyTable } from "../locators/templates.ts";

// CommonJS: Node gives its named exports under `default`, bundlers give them directly.
type SideModel = typeof sideModel;
const { ArgTypes, Commands }: SideModel = "ArgTypes" in sideModel ? sideModel : (sideModel as unknown as { default: SideModel }).default;

const LOCATOR_TYPES = new Set<unknown>([ArgTypes.locator, ArgTypes.selectLocator, ArgTypes.locatorOfObjectToBeDragged, ArgTypes.locatorOfDragDestinationObject]);
const COMMANDS = Commands as unknown as Record<string, { target?: unknown; value?: unknown } | undefined>;

/** selectFrame's own forms, which are no strategies. */
const FRAME_FORMS = /^(index|relative)=/;

/** The command with each of its locators as the players know it; throws, naming NAME and the command, for an undeclared `NAME=`. */
export function withDeclaredLocators(command: CommandShape, table: StrategyTable, where: string): CommandShape {
  const spec = Object.hasOwn(COMMANDS, command.command) ? COMMANDS[command.command] : undefined;
  if (!spec) return command;
  const expand = (location: string) => {
    if (command.command === "selectFrame" && FRAME_FORMS.test(location)) return location;
    const name = declaredName(location);
    if (name === null) return location;
    if (!table.has(name)) {
      throw new Error(
        `${where} ${command.command} uses the locator strategy "${name}" (${JSON.stringify(location)}), which is not declared: ` +
          `the project's locatorStrategies must carry it, or a plugin that declares it be registered`,
      );
    }
    return expandLocator(location, table);
  };
  let { target, value } = command;
  if (target && LOCATOR_TYPES.has(spec.target)) target = expand(target);
  // `locator@attribute`: the locator is what comes before the last @.
  if (target && spec.target === ArgTypes.attributeLocator && target.lastIndexOf("@") > 0) {
    const at = target.lastIndexOf("@");
    target = `${expand(target.slice(0, at))}${target.slice(at)}`;
  }
  if (value && LOCATOR_TYPES.has(spec.value)) value = expand(value);
  return target === command.target && value === command.value ? command : { ...command, target, value };
}
