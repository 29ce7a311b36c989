// Where `loadVars FILE` reads its data file in `npm start` and `npm run play` (CONTRACT section
// 22): an absolute path as it is; a relative one in `--files DIR` when given, then beside the
// `.side` file, as `type` on a file input (services/playback/uploads.ts) looks; a file found on
// no disk path is then looked for among the project's carried data files (withCarriedFiles). The
// run machine's `readData` port: the machines never read a file themselves.
import { readFile } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { DataFileError, parseDataFile } from "../../services/playback/data.ts";
import type { DataRow } from "../../services/playback/data.ts";
import { carriedDataFile } from "../../services/side/index.ts";
import type { SideProject } from "../../services/side/index.ts";

/** The data file is on no path looked at (as opposed to found and not a data file). */
class DataFileNotFound extends DataFileError {}

/** Where `loadVars` looks for a relative file: `--files DIR`, then the `.side` file's folder (as uploads). */
export interface DataPlaces {
  filesDir: string | null;
  projectDir: string | null;
}

/** The paths looked at for `name`, in order: an absolute path as it is. */
export function dataCandidates(name: string, places: DataPlaces): string[] {
  if (isAbsolute(name)) return [name];
  const bases = [places.filesDir, places.projectDir].filter((base): base is string => base !== null);
  return [...new Set(bases.map((base) => resolve(base, name)))];
}

/** Reads and parses the data file `name` names; a DataFileError naming every path looked at when it is nowhere. */
export function dataFileReader(places: DataPlaces): (name: string) => Promise<DataRow[]> {
  return async (name) => {
    const trimmed = name.trim();
    if (trimmed === "") throw new DataFileError("loadVars needs the path of a .csv or .json file as its target.");
    const candidates = dataCandidates(trimmed, places);
    if (candidates.length === 0) {
      throw new DataFileNotFound(`The data file ${JSON.stringify(trimmed)} is a relative path, and there is neither --files DIR nor a .side file's folder to look in; give an absolute path.`);
    }
    for (const path of candidates) {
      let text: string;
      try {
        text = await readFile(path, "utf8");
      } catch {
        continue;
      }
      return parseDataFile({ path: trimmed === path ? path : trimmed, text });
    }
    throw new DataFileNotFound(`The data file ${JSON.stringify(trimmed)} was not found: looked at ${candidates.join(", ")}.`);
  };
}

/**
 * `read`, then, for a file it found nowhere, the project's carried data file of that name
 * (services/side/dataFiles.ts): the disk wins, so a project run beside its files plays them.
 */
export function withCarriedFiles(read: (name: string) => Promise<ReadonlyArray<DataRow>>, project: () => Pick<SideProject, "dataFiles"> | null): (name: string) => Promise<ReadonlyArray<DataRow>> {
  return async (name) => {
    try {
      return await read(name);
    } catch (error) {
      const carried = error instanceof DataFileNotFound ? carriedDataFile(project() ?? {}, name) : null;
      if (!carried) {
        if (error instanceof DataFileNotFound) throw new DataFileError(`${error.message} Nor does the project carry a data file of that name (add one with "Add data file").`);
        throw error;
      }
      return parseDataFile({ path: carried.name, text: carried.content });
    }
  };
}
