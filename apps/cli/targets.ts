// What a command line plays or exports (npm run play, npm run export): `--suite NAME` or
// `--test NAME`, never both (CONTRACT section 16: `[--suite NAME | --test NAME]`), else every
// suite of the project in its order, else every test when it has no suite.
import { suitesOf } from "../../services/playback/targets.ts";
import type { SideProject } from "../../services/side/index.ts";
import { ProjectError } from "./project.ts";
import { UsageError } from "./usage.ts";

/** What the user named: one suite, one test, or everything. */
export type TargetChoice = { kind: "suite"; name: string } | { kind: "test"; name: string } | { kind: "all" };

export type Target = { kind: "suite" | "test"; id: string; name: string };

/** `--suite` and `--test` as readArgs gave them; both at once is a UsageError. */
export function targetChoice(values: { suite?: string; test?: string }): TargetChoice {
  if (values.suite !== undefined && values.test !== undefined) throw new UsageError("give --suite or --test, not both");
  if (values.suite !== undefined) return { kind: "suite", name: values.suite };
  if (values.test !== undefined) return { kind: "test", name: values.test };
  return { kind: "all" };
}

const listed = (names: string[]) => (names.length ? names.map((n) => JSON.stringify(n)).join(", ") : "none");

/**
 * The suites or tests the choice names in the project, in order: the one named (a ProjectError
 * listing what the project has when it lacks it), else every suite, else every test (none for
 * a project without tests: the caller says what that means for it).
 */
export function chooseTargets(project: SideProject, choice: TargetChoice): Target[] {
  const suites = suitesOf(project);
  if (choice.kind === "suite") {
    const suite = suites.find((s) => s.name === choice.name);
    if (!suite) throw new ProjectError(`the project has no suite named ${JSON.stringify(choice.name)}; its suites: ${listed(suites.map((s) => s.name))}`);
    return [{ kind: "suite", id: suite.id, name: suite.name }];
  }
  if (choice.kind === "test") {
    const test = project.tests.find((t) => t.name === choice.name);
    if (!test) throw new ProjectError(`the project has no test named ${JSON.stringify(choice.name)}; its tests: ${listed(project.tests.map((t) => t.name))}`);
    return [{ kind: "test", id: test.id, name: test.name }];
  }
  if (suites.length > 0) return suites.map((s) => ({ kind: "suite", id: s.id, name: s.name }));
  return project.tests.map((t) => ({ kind: "test", id: t.id, name: t.name }));
}
