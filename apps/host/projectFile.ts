// A .side project read from a file for `npm start` and `npm run play`: the file, its JSON and
// its shape are checked, and the error names the file and its first problem.
import { readFileSync } from "node:fs";
import { parseSideProject } from "../../services/side/index.ts";
import type { SideProject } from "../../services/side/index.ts";

/** The project in `path`, or an error that names the file and its first problem. */
export function readProjectFile(path: string): SideProject {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`cannot read the project file ${path}: ${code === "ENOENT" ? "there is no such file" : (error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`the project file ${path} is not JSON: ${(error as Error).message}`);
  }
  const parsed = parseSideProject(data);
  if (!parsed.ok) throw new Error(`the project file ${path} is not a usable .side project: ${parsed.problem}`);
  return parsed.project;
}

