// `type` on a file input (CONTRACT section 19) for side-runtime's WebDriverExecutor in the host.
// side-runtime's doType clears the element and sends the value as keys; for `<input
// type=file>` the value is the path of the file to upload, and clearing a file input is
// refused. The executor's doType is replaced by one that finds the element as before and, for
// a file input, sends the absolute path the project's value resolves to (services/playback/
// uploads.ts) without clearing: a local chromedriver sets the input's files from it, and
// through a Grid the driver's remote.FileDetector (set in browserSession.ts) uploads the file
// to the node first. Any other element is typed into as side-runtime's doType does (clear,
// then the keys), on the element already found. As side-runtime's, the target, the value and
// the alternative targets have their `${variables}` replaced first. A `<select>` takes the option
// the value names (typedOption.ts).
import { statSync } from "node:fs";
import { composePreprocessors, interpolateString, preprocessArray } from "@seleniumhq/side-runtime/dist/preprocessors.js";
import { resolveUpload } from "../../services/playback/uploads.ts";
import type { UploadPlaces } from "../../services/playback/uploads.ts";
import type { SideExecutor } from "./sideRuntime.ts";
import { chooseTypedOption, isSelect } from "./typedOption.ts";

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;

/** Whether the element is an `<input type=file>`. */
async function isFileInput(element: { getTagName(): Promise<string>; getAttribute(name: string): Promise<string | null> }): Promise<boolean> {
  if ((await element.getTagName()).toLowerCase() !== "input") return false;
  return (await element.getAttribute("type"))?.toLowerCase() === "file";
}

/** The absolute paths for a value of one path, or several on lines of their own (an input with `multiple`). */
export function uploadPaths(value: string, places: UploadPlaces, exists: (path: string) => boolean = isFile): string {
  const names = value.split("\n").filter((line) => line.trim() !== "");
  return (names.length === 0 ? [value] : names).map((name) => resolveUpload(name, places, exists)).join("\n");
}

/** Makes `runner`'s `type` upload the named file into a file input, read from `places` when relative. */
export function withFileUploads(runner: SideExecutor, places: UploadPlaces): SideExecutor {
  const doType: SideExecutor["doType"] = async (locator, value, commandObject = {}) => {
    const element = await runner.waitForElement(locator, commandObject.targetFallback, commandObject.targets, commandObject.fallbackTargets);
    if (await isFileInput(element as never)) return element.sendKeys(uploadPaths(value, places));
    if (await isSelect(element as never)) return chooseTypedOption(runner.driver as never, element as never, locator, value);
    // As side-runtime's own doType, on the element already found.
    await element.clear();
    if (value) await element.sendKeys(value);
  };
  // Composed as side-runtime composes its own doType: it reads the runner's variables as `this`.
  runner.doType = composePreprocessors(interpolateString, interpolateString, { targetFallback: preprocessArray(interpolateString) }, doType);
  return runner;
}
