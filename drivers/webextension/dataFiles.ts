// `loadVars FILE` in the browser extension (CONTRACT section 22): an extension page cannot read
// the disk, so the data file is one the project carries (the page's "Add data file";
// services/side/dataFiles.ts says how it travels in the .side file). The readData port of the
// extension's createIde.
import { DataFileError, parseDataFile } from "../../services/playback/data.ts";
import type { DataRow } from "../../services/playback/data.ts";
import { carriedDataFile } from "../../services/side/index.ts";
import type { SideProject } from "../../services/side/index.ts";

/** Reads `loadVars`' file from the project as it is now (`project`: the IDE's getProject). */
export function carriedDataReader(project: () => Pick<SideProject, "dataFiles">): (name: string) => Promise<DataRow[]> {
  return async (name) => {
    const trimmed = name.trim();
    if (trimmed === "") throw new DataFileError("loadVars needs the name of a .csv or .json file as its target.");
    const carried = carriedDataFile(project(), trimmed);
    if (!carried) {
      const names = (project().dataFiles ?? []).map((f) => JSON.stringify(f.name));
      const has = names.length === 0 ? "it carries none" : `it carries ${names.join(", ")}`;
      throw new DataFileError(
        `The data file ${JSON.stringify(trimmed)} is not in the project (${has}): the extension cannot read files from the disk, so add it with "Add data file" in the Project section.`,
      );
    }
    return parseDataFile({ path: carried.name, text: carried.content });
  };
}
