export {
  parseSideProject,
  sideCommandSchema,
  sideProjectSchema,
  sideTestSchema,
  untitledProject,
} from "./schema.ts";
export { newProject } from "./newProject.ts";
export type { SideCommand, SideParseResult, SideProject, SideTest } from "./schema.ts";
export { locatorOrderSchema, recordingSettings, testIdAttributesSchema, type RecordingSettings } from "./settings.ts";
export { carriedDataFile, dataFileNameProblem, MAX_DATA_FILE_CHARS, MAX_DATA_FILE_NAME, type CarriedDataFile } from "./dataFiles.ts";
export { checkSuiteName, isSuite, newSuite, suiteIndex, SUITE_TIMEOUT_S, type SideSuite } from "./suites.ts";
export { carryingStrategies, strategiesToCarry } from "./carryStrategies.ts";
export { MAX_CARRIED_STRATEGIES } from "./strategies.ts";
