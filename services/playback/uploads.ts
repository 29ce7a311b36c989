// Where `type` on a file input finds the file it uploads (CONTRACT section 19): the path as
// written when it is absolute, else relative to `--files DIR` when one was given, then relative
// to the folder of the `.side` file. Pure: whether a file is there is asked of `isFile`, which
// the host answers from its own file system. A name found nowhere is an UploadError that names
// every place looked, so the user sees at once where to put the file or what to pass.
import { isAbsolute, resolve } from "node:path";

/** Where relative upload paths are looked for. */
export interface UploadPlaces {
  /** `--files DIR`, absolute; null when not given. */
  filesDir: string | null;
  /** The folder of the `.side` file played; null when the project came from no file. */
  projectDir: string | null;
}

export class UploadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UploadError";
  }
}

/** The absolute paths looked at for `name`, in order. */
export function uploadCandidates(name: string, places: UploadPlaces): string[] {
  if (isAbsolute(name)) return [name];
  const bases = [places.filesDir, places.projectDir].filter((base): base is string => base !== null);
  return [...new Set(bases.map((base) => resolve(base, name)))];
}

/** The absolute path of the file `type` uploads; an UploadError naming every place looked when it is in none. */
export function resolveUpload(name: string, places: UploadPlaces, isFile: (path: string) => boolean): string {
  const trimmed = name.trim();
  if (trimmed === "") throw new UploadError("type on a file input needs the path of the file to upload as its value");
  const candidates = uploadCandidates(trimmed, places);
  const found = candidates.find((path) => isFile(path));
  if (found !== undefined) return found;
  if (candidates.length === 0) {
    throw new UploadError(`The file to upload ${JSON.stringify(trimmed)} is a relative path, and there is neither --files DIR nor a .side file's folder to look in; give an absolute path or --files DIR.`);
  }
  const hint = isAbsolute(trimmed) ? "" : " (a relative path is read from --files DIR when given, then from the .side file's folder)";
  throw new UploadError(`The file to upload ${JSON.stringify(trimmed)} was not found: looked at ${candidates.join(", ")}${hint}.`);
}
