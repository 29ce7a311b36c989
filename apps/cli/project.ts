// The project a command line works on (npm start, npm run play, npm run export): a .side file
// read and checked (the file, its JSON, its shape), or a ProjectError that names the file and
// its first problem. A Chrome Recorder flow (a .json file, or JSON with `steps` and `title` and
// no `tests`) is read as a project of one test; its warnings go to `warn` (stderr by default).
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { flowToProject, looksLikeFlow } from "../../services/chromeRecorder/index.ts";
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

const toStderr = (message: string) => void process.stderr.write(`${message}\n`);

/** The project in `path`, or a ProjectError that names the file and its first problem. */
export function readProjectFile(path: string, warn: (message: string) => void = toStderr): SideProject {
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
  const side = typeof data === "object" && data !== null && "tests" in data;
  if (looksLikeFlow(data) || (/\.json$/i.test(path) && !side)) {
    const flow = flowToProject(data, basename(path));
    if (!flow.ok) throw new ProjectError(`the file ${path} is not a usable Chrome Recorder flow: ${flow.problem}`);
    for (const warning of flow.warnings) warn(`${path}: ${warning}`);
    return flow.project;
  }
  const parsed = parseSideProject(data);
  if (!parsed.ok) throw new ProjectError(`the project file ${path} is not a usable .side project: ${parsed.problem}`);
  return parsed.project;
}
