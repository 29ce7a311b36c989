// The data files a project carries (CONTRACT section 22): where `loadVars FILE` finds its file
// when the disk has none, and the only place the browser extension can find one (it cannot read
// the disk). They travel in the .side file as a project-level field that Selenium IDE and
// side-runner do not read (and so ignore):
//   "dataFiles": [{ "name": "people.csv", "content": "name,age\nAda,36\n" }]
// `name` is the file's name as `loadVars` names it; `content` is its whole text.
import { z } from "zod";
import { nonEmptyString } from "../validation.ts";

/** The most text one carried data file may hold: it is saved inside the .side file. */
export const MAX_DATA_FILE_CHARS = 8 * 1024 * 1024;
/** The longest name a carried data file may have. */
export const MAX_DATA_FILE_NAME = 255;

export const dataFileSchema = z.looseObject({ name: nonEmptyString.max(MAX_DATA_FILE_NAME), content: z.string().max(MAX_DATA_FILE_CHARS) });
export type CarriedDataFile = z.infer<typeof dataFileSchema>;

export const dataFilesSchema = z.array(dataFileSchema).superRefine((files, ctx) => {
  const seen = new Set<string>();
  files.forEach((file, index) => {
    if (seen.has(file.name)) ctx.addIssue({ code: "custom", path: [index, "name"], message: `names the data file ${JSON.stringify(file.name)} a second time (each name once)` });
    seen.add(file.name);
  });
});

/** What a data file's name must be: a .csv or .json file's name, without a folder. */
export function dataFileNameProblem(name: string): string | null {
  if (name.trim() === "") return "A data file needs a name.";
  if (name.length > MAX_DATA_FILE_NAME) return `A data file's name has at most ${MAX_DATA_FILE_NAME} characters.`;
  if (/[\\/]/.test(name)) return `The data file's name ${JSON.stringify(name)} has a folder in it; a carried file is named by its file name alone.`;
  if (!/\.(csv|json)$/i.test(name)) return `A data file is a .csv or a .json file, not ${JSON.stringify(name)}.`;
  return null;
}

/**
 * The carried file `loadVars FILE` means: the one named `FILE` exactly, else the one named as
 * its last path segment (`data/people.csv` finds `people.csv`); null when the project has none.
 */
export function carriedDataFile(project: { dataFiles?: readonly CarriedDataFile[] }, file: string): CarriedDataFile | null {
  const files = project.dataFiles ?? [];
  const name = file.trim();
  const base = name.split(/[\\/]/).pop() ?? name;
  return files.find((f) => f.name === name) ?? files.find((f) => f.name === base) ?? null;
}
