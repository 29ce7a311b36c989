export {
  parseSideProject,
  sideCommandSchema,
  sideProjectSchema,
  sideTestSchema,
  untitledProject,
} from "./schema.ts";
export type { SideCommand, SideParseResult, SideProject, SideTest } from "./schema.ts";
export { locatorOrderSchema, recordingSettings, testIdAttributesSchema, type RecordingSettings } from "./settings.ts";
