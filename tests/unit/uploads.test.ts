import { describe, expect, it } from "vitest";
import { resolveUpload, UploadError } from "../../services/playback/uploads.ts";

const only = (...present: string[]) => (path: string) => present.includes(path);

describe("the file type uploads into a file input", () => {
  it("is an absolute path as written", () => {
    expect(resolveUpload("/data/a.txt", { filesDir: "/files", projectDir: "/proj" }, only("/data/a.txt"))).toBe("/data/a.txt");
  });

  it("is read from --files DIR before the .side file's folder", () => {
    const places = { filesDir: "/files", projectDir: "/proj" };
    expect(resolveUpload("up/a.txt", places, only("/files/up/a.txt", "/proj/up/a.txt"))).toBe("/files/up/a.txt");
    expect(resolveUpload("up/a.txt", places, only("/proj/up/a.txt"))).toBe("/proj/up/a.txt");
  });

  it("is read from the .side file's folder without --files", () => {
    expect(resolveUpload("./a.txt", { filesDir: null, projectDir: "/proj" }, only("/proj/a.txt"))).toBe("/proj/a.txt");
  });

  it("missing fails with a message naming every place looked", () => {
    const fail = () => resolveUpload("a.txt", { filesDir: "/files", projectDir: "/proj" }, only());
    expect(fail).toThrow(UploadError);
    expect(fail).toThrow(/"a\.txt" was not found: looked at \/files\/a\.txt, \/proj\/a\.txt/);
    expect(() => resolveUpload("/x/a.txt", { filesDir: null, projectDir: "/proj" }, only())).toThrow(/looked at \/x\/a\.txt\.$/);
  });

  it("relative with nowhere to look, or empty, fails clearly", () => {
    expect(() => resolveUpload("a.txt", { filesDir: null, projectDir: null }, only())).toThrow(/give an absolute path or --files DIR/);
    expect(() => resolveUpload("  ", { filesDir: null, projectDir: "/p" }, only())).toThrow(/needs the path of the file/);
  });
});
