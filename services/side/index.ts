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
