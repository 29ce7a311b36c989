// The project a command line works on (npm start, npm run play, npm run export): a .side file
// read and checked (the file, its JSON, its shape), or a ProjectError that names the file and
// its first problem.
import { readFileSync } from "node:fs";
import { messageOf } from "../../services/errors.ts";
import { parseSideProject } from "../../services/side/index.ts";
import type { SideProject } from "../../services/side/index.ts";

/** A problem with the project or with what was asked of it (a suite it lacks): one line, nothing starts. */
export class ProjectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProjectError";
  }
}

/** The project in `path`, or a ProjectError that names the file and its first problem. */
export function readProjectFile(path: string): SideProject {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ProjectError(`cannot read the project file ${path}: ${code === "ENOENT" ? "there is no such file" : messageOf(error)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ProjectError(`the project file ${path} is not JSON: ${messageOf(error)}`);
  }
  const parsed = parseSideProject(data);
  if (!parsed.ok) throw new ProjectError(`the project file ${path} is not a usable .side project: ${parsed.problem}`);
  return parsed.project;
}
