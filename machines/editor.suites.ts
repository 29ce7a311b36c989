// The project's own edits (CONTRACT section 20): its name and base URL, its tests as wholes
// (duplicate, delete) and its suites (add, rename, delete, the tests they hold, their settings).
// Each is planned as in editor.edits.ts: checked against the project as it is, then an immer
// recipe with its name. Suites are the .side file's (services/side/suites.ts): a suite this
// core cannot read is left as it came, and no edit names it.
import type { Draft } from "immer";
import { checkSuiteName, isSuite, newSuite, suiteIndex } from "../services/side/index.ts";
import type { SideCommand, SideProject, SideSuite, SideTest } from "../services/side/index.ts";
import { copyName } from "../services/side/testName.ts";
import { beingPlayed, refused, unknownTest } from "./editor.edits.ts";
import type { Display, PlanResult, Planned } from "./editor.edits.ts";
import type { Edit } from "./editor.history.ts";
import type { EditorContext, UserProjectEditEvent } from "./editor.types.ts";
import { planDataFileEdit } from "./editor.dataFiles.ts";

type Context = Display & Pick<EditorContext, "playing" | "recordingTestId">;

const planned = (label: string, recipe: Edit["recipe"], place?: Planned["place"]): Planned => ({ ok: true, edit: { label, recipe }, place });

const unknownSuite = (id: string) => `The project has no suite with the id "${id}".`;
const beingRecorded = (test: SideTest) =>
  `The test "${test.name}" is being recorded into; it cannot be deleted until the recording stops (stop it first).`;

/** A base URL a run can open: absolute http or https. */
function urlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `The base URL "${url}" is not an absolute URL; give one such as https://example.com.`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return `The base URL "${url}" must start with http:// or https://.`;
  return null;
}

/** The suite draft at `at` (isSuite checked it when planning). */
const suiteAt = (p: Draft<SideProject>, at: number) => p.suites[at] as Draft<SideSuite>;

export function planProjectEdit(context: Context, event: UserProjectEditEvent): PlanResult {
  const { project } = context;
  switch (event.type) {
    case "user.changeProject": {
      const name = event.name?.trim();
      if (name === "") return refused("InvalidRequest", "A project needs a name that is not empty.");
      const url = event.url?.trim();
      const problem = url === undefined ? null : urlProblem(url);
      if (problem) return refused("InvalidRequest", problem);
      const renames = name !== undefined && name !== project.name;
      const moves = url !== undefined && url !== project.url;
      if (!renames && !moves) return refused("InvalidRequest", "The project's name and base URL are already so.");
      const label = renames && moves ? `Change project "${project.name}"` : renames ? `Rename project "${project.name}" to "${name}"` : `Change the base URL to "${url}"`;
      return planned(label, (p) => {
        if (renames) p.name = name!;
        if (moves) p.url = url!;
      });
    }
    case "user.duplicateTest": {
      const at = project.tests.findIndex((t) => t.id === event.testId);
      if (at < 0) return refused("UnknownTest", unknownTest(event.testId));
      const original = project.tests[at];
      const copy: SideTest = {
        ...structuredClone(original),
        id: globalThis.crypto.randomUUID(),
        name: copyName(original.name, project.tests),
        commands: original.commands.map((c): SideCommand => ({ ...structuredClone(c), id: globalThis.crypto.randomUUID() })),
      };
      return planned(
        `Duplicate test "${original.name}"`,
        (p) => {
          p.tests.splice(at + 1, 0, copy);
          for (const suite of p.suites) {
            if (!isSuite(suite)) continue;
            const place = suite.tests.indexOf(original.id);
            if (place >= 0) (suite as Draft<SideSuite>).tests.splice(place + 1, 0, copy.id);
          }
        },
        { displayedTestId: copy.id, selectedCommandId: null },
      );
    }
    case "user.deleteTest": {
      const at = project.tests.findIndex((t) => t.id === event.testId);
      if (at < 0) return refused("UnknownTest", unknownTest(event.testId));
      const test = project.tests[at];
      if (context.playing.includes(test.id)) return refused("Busy", beingPlayed(test));
      if (context.recordingTestId === test.id) return refused("Busy", beingRecorded(test));
      const shown = context.displayedTestId === test.id ? ((project.tests[at + 1] ?? project.tests[at - 1])?.id ?? null) : context.displayedTestId;
      return planned(
        `Delete test "${test.name}"`,
        (p) => {
          p.tests.splice(at, 1);
          for (const suite of p.suites) {
            if (!isSuite(suite) || !suite.tests.includes(test.id)) continue;
            (suite as Draft<SideSuite>).tests = suite.tests.filter((id) => id !== test.id);
          }
        },
        { displayedTestId: shown, selectedCommandId: shown === context.displayedTestId ? context.selectedCommandId : null },
      );
    }
    case "user.addSuite": {
      const name = checkSuiteName(event.name, project.suites);
      if (!name.ok) return refused("InvalidRequest", name.problem);
      const suite = newSuite(name.name);
      return planned(`Add suite "${suite.name}"`, (p) => void p.suites.push(suite));
    }
    case "user.addDataFile":
    case "user.removeDataFile":
      return planDataFileEdit(project, event);
    default:
      return planSuiteEdit(context, event);
  }
}

/** The edits of one existing suite. */
function planSuiteEdit(
  context: Context,
  event: Extract<UserProjectEditEvent, { type: "user.renameSuite" | "user.deleteSuite" | "user.setSuiteTests" | "user.changeSuite" }>,
): PlanResult {
  const { project } = context;
  const at = suiteIndex(project, event.suiteId);
  if (at < 0) return refused("InvalidRequest", unknownSuite(event.suiteId));
  const suite = project.suites[at] as Pick<SideSuite, "id" | "name" | "tests"> & Partial<SideSuite>;
  switch (event.type) {
    case "user.renameSuite": {
      const name = checkSuiteName(event.name, project.suites, suite.id);
      if (!name.ok) return refused("InvalidRequest", name.problem);
      if (name.name === suite.name) return refused("InvalidRequest", `The suite is already named "${suite.name}".`);
      return planned(`Rename suite "${suite.name}" to "${name.name}"`, (p) => void (suiteAt(p, at).name = name.name));
    }
    case "user.deleteSuite":
      return planned(`Delete suite "${suite.name}"`, (p) => void p.suites.splice(at, 1));
    case "user.setSuiteTests": {
      const known = new Set(project.tests.map((t) => t.id));
      const unknown = event.testIds.find((id) => !known.has(id));
      if (unknown !== undefined) return refused("UnknownTest", `${unknownTest(unknown)} The suite "${suite.name}" can only hold the project's tests.`);
      const repeated = event.testIds.find((id, i) => event.testIds.indexOf(id) !== i);
      if (repeated !== undefined) return refused("InvalidRequest", `The test "${repeated}" is named twice; a suite holds a test once.`);
      if (event.testIds.length === suite.tests.length && event.testIds.every((id, i) => suite.tests[i] === id)) {
        return refused("InvalidRequest", `The suite "${suite.name}" already holds these tests in this order.`);
      }
      const testIds = [...event.testIds];
      return planned(`Change the tests of suite "${suite.name}"`, (p) => void (suiteAt(p, at).tests = testIds));
    }
    case "user.changeSuite": {
      const changes: Partial<Pick<SideSuite, "parallel" | "persistSession" | "timeout">> = {};
      if (event.parallel !== undefined && event.parallel !== suite.parallel) changes.parallel = event.parallel;
      if (event.persistSession !== undefined && event.persistSession !== suite.persistSession) changes.persistSession = event.persistSession;
      if (event.timeoutS !== undefined && event.timeoutS !== suite.timeout) changes.timeout = event.timeoutS;
      if (Object.keys(changes).length === 0) return refused("InvalidRequest", `The settings of suite "${suite.name}" are already so.`);
      return planned(`Change the settings of suite "${suite.name}"`, (p) => void Object.assign(suiteAt(p, at), changes));
    }
  }
}
