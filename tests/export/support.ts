// Helpers of the export tests: the example project, a project with control flow, and the
// packages called directly (the reference every exported file is compared with).
import { readFileSync } from "node:fs";
import type { TestShape } from "@seleniumhq/side-model";
import { packageOptions } from "../../services/export/index.ts";
import type { ExportLanguage, ExportScope } from "../../services/export/index.ts";
import { loadLanguage } from "../../services/export/languages.ts";
import { parseSideProject } from "../../services/side/index.ts";
import type { SideProject } from "../../services/side/index.ts";

export const SHOP_SIDE = new URL("../../examples/shop.side", import.meta.url);

export function shopProject(): SideProject {
  return parsed(JSON.parse(readFileSync(SHOP_SIDE, "utf8")));
}

function parsed(data: unknown): SideProject {
  const result = parseSideProject(data);
  if (!result.ok) throw new Error(result.problem);
  return result.project;
}

let nextId = 0;
const c = (command: string, target = "", value = "") => ({ id: `c${(nextId += 1)}`, command, target, value, comment: "" });

/** if/else, times, a variable echoed among words, a reused test (`run`). */
export function flowProject(): SideProject {
  return parsed({
    id: "p-flow",
    name: "Flow",
    url: "http://127.0.0.1:8080",
    version: "2.0",
    tests: [
      {
        id: "t-flow",
        name: "flow",
        commands: [
          c("open", "/shop"),
          c("store", "a", "x"),
          c("if", '${x} === "a"'),
          c("echo", "yes"),
          c("times", "2", "5"),
          c("click", "id=add"),
          c("end"),
          c("else"),
          c("echo", "no"),
          c("end"),
          c("assertText", "css=.cart-count", "1"),
          c("echo", "hi ${x} there"),
          c("run", "helper"),
        ],
      },
      { id: "t-helper", name: "helper", commands: [c("click", "id=o"), c("if", "true"), c("click", "id=in"), c("end")] },
    ],
    suites: [{ id: "s-flow", name: "Flow suite", tests: ["t-flow", "t-helper"], persistSession: false, parallel: false, timeout: 300 }],
  });
}

/** What the language's package writes when called directly, as Selenium IDE calls it. */
export async function directExport(language: ExportLanguage, project: SideProject, scope: ExportScope) {
  const emitter = await loadLanguage(language);
  const common = packageOptions(project);
  if ("testId" in scope) {
    const test = project.tests.find((candidate) => candidate.id === scope.testId)!;
    return emitter.emit.test({ ...common, test: test as unknown as TestShape });
  }
  const suite = (project.suites as Array<{ id: string }>).find((candidate) => candidate.id === scope.suiteId)!;
  return emitter.emit.suite({ ...common, suite: suite as never });
}

/** A file's lines of code: indentation and blank lines aside. */
export function linesOf(body: string): string[] {
  return body
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}
