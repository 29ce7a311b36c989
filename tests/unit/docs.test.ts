// The README and the manual in docs/ are read by people on a fresh machine: every command they
// name must exist, every relative link must lead somewhere, and the README must stay short and
// open with the two commands that set up and run the main job and the tests.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

const DOCS = readdirSync(join(ROOT, "docs")).sort();
const MARKDOWN = ["README.md", ...DOCS.filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
const SCRIPTS: Record<string, string> = JSON.parse(read("package.json")).scripts;

/** What npm does itself, with no script of the package's own. */
const NPM_OWN = new Set(["ci", "install"]);
/** npm's built-in commands that run the package's script of the same name. */
const NPM_BUILT_IN_SCRIPTS = new Set(["start", "test", "stop", "restart"]);

/** Markdown without its fenced code blocks and inline code: what a reader sees as links. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** The targets of `[text](target)` and `![alt](target)`, as written. */
function linksOf(markdown: string): string[] {
  return [...withoutCode(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
}

/** The relative links a reader can follow to a file: no http(s), mailto or same-page anchors. */
function relativeLinksOf(markdown: string): string[] {
  return linksOf(markdown)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("#"))
    .map((target) => decodeURIComponent(target.split("#")[0]));
}

/** Each npm command named (`npm run X`, `npm X`), as the word after npm and, for run, its script. */
function npmCommandsOf(markdown: string): { command: string; script: string | null }[] {
  return [...markdown.matchAll(/\bnpm (run(?:-script)? )?([a-z][\w:.-]*)/g)].map((m) =>
    m[1] ? { command: `npm run ${m[2]}`, script: m[2] } : { command: `npm ${m[2]}`, script: NPM_OWN.has(m[2]) ? null : m[2] },
  );
}

describe("the README and the manual in docs/", () => {
  it("name only npm commands that exist: package.json scripts, npm start and test mapped to theirs, npm ci and install", () => {
    const missing = MARKDOWN.flatMap((file) =>
      npmCommandsOf(read(file))
        .filter(({ command, script }) => {
          if (script === null) return false;
          const viaRun = command.startsWith("npm run ");
          if (!viaRun && !NPM_BUILT_IN_SCRIPTS.has(script)) return true;
          return !(script in SCRIPTS);
        })
        .map(({ command }) => `${file}: ${command}`),
    );
    expect(missing).toEqual([]);
  });

  it("link only to files and folders that are in the repository", () => {
    const broken = MARKDOWN.flatMap((file) =>
      relativeLinksOf(read(file))
        .filter((target) => {
          const path = resolve(ROOT, dirname(file), target);
          const inside = !relative(ROOT, path).startsWith("..");
          return !inside || !existsSync(path);
        })
        .map((target) => `${file}: ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it("find the links and commands they check: the extractors see links, pictures and npm commands in a sample", () => {
    const sample = [
      "See [the host](docs/host.md#options), ![a picture](docs/ui.png) and [a site](https://example.org).",
      "Not a link: `[text](nowhere.md)`.",
      "```sh\nnpm run nothing   # [code](nowhere.md)\n```",
      "Run `npm run bench -- --only handle`, then `npm start` and `npm ci`.",
    ].join("\n");
    expect(linksOf(sample)).toEqual(["docs/host.md#options", "docs/ui.png", "https://example.org"]);
    expect(relativeLinksOf(sample)).toEqual(["docs/host.md", "docs/ui.png"]);
    expect(npmCommandsOf(sample).map((c) => c.command)).toEqual(["npm run nothing", "npm run bench", "npm start", "npm ci"]);
    expect(relativeLinksOf(read("README.md")).length).toBeGreaterThan(10);
  });
});

describe("the README", () => {
  const readme = read("README.md");
  const lines = readme.split("\n");

  it("is at most 150 lines", () => {
    expect(lines.length).toBeLessThanOrEqual(150);
  });

  it("opens with the two commands: set up and run the main job, set up and run the tests", () => {
    const firstBlock = /^# [^\n]+\n\n```sh\n([^\n]*)\n([^\n]*)\n```\n/.exec(readme);
    expect(firstBlock, "the title, then at once a sh block of two lines").not.toBeNull();
    expect(firstBlock![1]).toMatch(/^npm install && npm start\s+#/);
    expect(firstBlock![2]).toMatch(/^npm ci && npm test\s+#/);
  });

  it("links every file in docs/ from its Documentation list", () => {
    const list = readme.slice(readme.indexOf("## Documentation"));
    expect(readme).toContain("## Documentation");
    const linked = new Set(relativeLinksOf(list));
    expect(DOCS.filter((file) => !linked.has(`docs/${file}`))).toEqual([]);
  });
});

describe("docs/architecture.md", () => {
  const architecture = read("docs/architecture.md");
  /** The checkout's own top folders that hold TypeScript: what a reader must find placed in the layers. */
  const sourceFolders = readdirSync(ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith(".") && !["node_modules", "dist", "coverage", "docs"].includes(entry.name))
    .map((entry) => entry.name)
    .filter((folder) => readdirSync(join(ROOT, folder), { recursive: true }).some((file) => /\.tsx?$/.test(String(file))));

  it("names every top source folder of the checkout as a folder (`name/`)", () => {
    expect(sourceFolders.length).toBeGreaterThan(8);
    expect(sourceFolders.filter((folder) => !new RegExp(`(^|[\\s\`(])${folder}/`, "m").test(architecture))).toEqual([]);
  });
});
