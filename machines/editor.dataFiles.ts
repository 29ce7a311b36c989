// The data files a project carries (CONTRACT section 22; services/side/dataFiles.ts): the
// user's "Add data file" and "Remove", planned as every project edit is (editor.suites.ts):
// checked against the project as it is, then an immer recipe with its name, one undo step. A
// file whose text is not a data file loadVars could play (not CSV with a header row, not a JSON
// array of objects) is refused with the parser's own message, naming the line.
import { dataFileNameProblem } from "../services/side/index.ts";
import type { SideProject } from "../services/side/index.ts";
import { parseDataFile } from "../services/playback/data.ts";
import { messageOf } from "../services/errors.ts";
import { refused } from "./editor.edits.ts";
import type { PlanResult } from "./editor.edits.ts";
import type { UserProjectEditEvent } from "./editor.types.ts";

type DataFileEvent = Extract<UserProjectEditEvent, { type: "user.addDataFile" | "user.removeDataFile" }>;

export function planDataFileEdit(project: SideProject, event: DataFileEvent): PlanResult {
  const files = project.dataFiles ?? [];
  const at = files.findIndex((f) => f.name === event.name);
  if (event.type === "user.removeDataFile") {
    if (at < 0) return refused("InvalidRequest", `The project carries no data file named ${JSON.stringify(event.name)}.`);
    const recipe = (p: SideProject) => {
      p.dataFiles!.splice(at, 1);
      // The last one gone: the project is as a .side file without data files is.
      if (p.dataFiles!.length === 0) delete p.dataFiles;
    };
    return { ok: true, edit: { label: `Remove data file "${event.name}"`, recipe } };
  }
  const problem = dataFileNameProblem(event.name);
  if (problem) return refused("InvalidRequest", problem);
  try {
    parseDataFile({ path: event.name, text: event.content });
  } catch (error) {
    return refused("InvalidRequest", messageOf(error));
  }
  const file = { name: event.name, content: event.content };
  if (at >= 0 && files[at].content === event.content) return refused("InvalidRequest", `The project already carries ${JSON.stringify(event.name)} with this content.`);
  const recipe = (p: SideProject) => {
    if (at >= 0) p.dataFiles![at] = file;
    else (p.dataFiles ??= []).push(file);
  };
  return { ok: true, edit: { label: `${at >= 0 ? "Replace" : "Add"} data file "${event.name}"`, recipe } };
}
