// The host's project files (CONTRACT section 20): Save writes the project where the user said
// (Save as), or where it was opened from, or in the default place; Open reads a recent one.
// Each write goes next to the target and is renamed over it, so a crash never leaves half a
// project; a Save as into a folder that does not exist writes nothing and says so.
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, isAbsolute } from "node:path";
import type { SideProject } from "../../services/side/index.ts";

const projectText = (project: SideProject) => `${JSON.stringify(project, null, 2)}\n`;

async function writeOver(path: string, project: SideProject) {
  const partial = `${path}.${process.pid}.partial`;
  try {
    await writeFile(partial, projectText(project), "utf8");
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/** The default place (the host's own folder), made if need be. */
export async function writeProjectFile(path: string, project: SideProject): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeOver(path, project);
}

/** A file the user named: absolute, in a folder that exists (none is made), not a folder itself. Resolves with the path written. */
export async function saveProjectAt(path: string, project: SideProject): Promise<string> {
  if (!isAbsolute(path)) throw new Error(`the path ${path} is not absolute; give the whole path, from the root folder`);
  const folder = dirname(path);
  const found = await stat(folder).catch(() => null);
  if (!found) throw new Error(`the folder ${folder} does not exist; nothing was written`);
  if (!found.isDirectory()) throw new Error(`${folder} is not a folder; nothing was written`);
  if ((await stat(path).catch(() => null))?.isDirectory()) throw new Error(`${path} is a folder; nothing was written`);
  await writeOver(path, project);
  return path;
}

/** The text of a project file, or a rejection that says why not in words. */
export async function readProjectText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new Error("there is no such file");
    if (code === "EISDIR") throw new Error("it is a folder");
    throw error;
  }
}
