// The project's recording settings (CONTRACT section 18) through ide.send(): `locatorOrder` and
// `testIdAttributes`, shown in the view with the defaults filled in, changed by
// user.changeSettings (the project becomes unsaved, the saved .side file keeps them as top-level
// fields), refused with a clear error when they name an unknown builder, and read from a loaded file.
// And the project's `heal` setting, which the IDE page's checkbox changes through the same event:
// unsaved, saved in the file, and read by the next run.
import { describe, expect, it } from "vitest";
import { DEFAULT_LOCATOR_ORDER, DEFAULT_TEST_ID_ATTRIBUTES } from "../../services/locators/builderNames.ts";
import { createIde, fakeExecutor, logsOf, shopProject } from "./support.ts";
import type { Ide } from "./support.ts";

describe("the recording settings", () => {
  it("are the defaults for a project that sets none: test ids first, positional xpaths last", () => {
    const ide = createIde({ project: shopProject() });
    const { locatorOrder, testIdAttributes } = ide.getSnapshot().recordingSettings;
    expect(locatorOrder).toEqual(DEFAULT_LOCATOR_ORDER);
    expect(locatorOrder[0]).toBe("css:testId");
    expect(locatorOrder.at(-1)).toBe("xpath:position");
    expect(testIdAttributes).toEqual(["data-testid", "data-test", "data-test-id", "data-qa", "data-cy"]);
  });

  it("change with user.changeSettings, make the project unsaved, and are saved in the .side file", async () => {
    const saves: Array<Record<string, unknown>> = [];
    const ide = createIde({ project: shopProject(), save: async (project) => void saves.push(project as never) });
    ide.send({ type: "user.changeSettings", locatorOrder: ["xpath:label", "id"], testIdAttributes: ["data-e2e"] });
    const view = ide.getSnapshot();
    expect(view.project.unsaved).toBe(true);
    expect(view.recordingSettings.locatorOrder.slice(0, 3)).toEqual(["xpath:label", "id", "css:testId"]);
    expect(view.recordingSettings.locatorOrder).toHaveLength(DEFAULT_LOCATOR_ORDER.length);
    expect(view.recordingSettings.testIdAttributes).toEqual(["data-e2e"]);
    ide.send({ type: "user.saveProject" });
    await expect.poll(() => saves.length).toBe(1);
    expect(saves[0]).toMatchObject({ locatorOrder: ["xpath:label", "id"], testIdAttributes: ["data-e2e"] });
  });

  it("refuse an unknown builder or a builder named twice with a clear error, and change nothing", () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.changeSettings", locatorOrder: ["id", "css:magic"] } as never);
    ide.send({ type: "user.changeSettings", locatorOrder: ["id", "id"] });
    ide.send({ type: "user.changeSettings", testIdAttributes: ["data test"] });
    const view = ide.getSnapshot();
    expect(view.project.unsaved).toBe(false);
    expect(view.recordingSettings.locatorOrder).toEqual(DEFAULT_LOCATOR_ORDER);
    expect(view.recordingSettings.testIdAttributes).toEqual(DEFAULT_TEST_ID_ATTRIBUTES);
    const errors = logsOf(ide).filter((entry) => entry.level === "error").map((entry) => entry.message);
    expect(errors).toEqual([
      expect.stringMatching(/^The recording settings were not changed: locatorOrder\[1\] must be a builder name \(one of css:testId, .*xpath:position\) or a declared locator strategy's name/),
      "The recording settings were not changed: locatorOrder must name each builder once.",
      expect.stringMatching(/^The recording settings were not changed: testIdAttributes\[0\] must be an attribute name/),
    ]);
  });

  it("are read from a loaded .side file, and a file naming an unknown builder is refused with its path", () => {
    const ide = createIde({ project: { ...shopProject(), locatorOrder: ["name", "css:testId"] } });
    expect(ide.getSnapshot().recordingSettings.locatorOrder.slice(0, 3)).toEqual(["name", "css:testId", "css:data-attr"]);
    expect(() => createIde({ project: { ...shopProject(), locatorOrder: ["Nom"] } })).toThrow(/locatorOrder\[0\] must be a builder name/);
  });

  it("place a strategy the project declares with an attribute right after the test ids, and take its name in locatorOrder", () => {
    const qa = { name: "qa", css: '[data-qa="{value}"]', attribute: "data-qa" };
    const ide = createIde({ project: { ...shopProject(), locatorStrategies: [qa] } });
    const before = ide.getSnapshot().recordingSettings;
    expect(before.locatorOrder.slice(0, 3)).toEqual(["css:testId", "css:data-attr", "qa"]);
    expect(before.strategies).toEqual([qa]);
    ide.send({ type: "user.changeSettings", locatorOrder: ["qa", "id"] });
    const view = ide.getSnapshot();
    expect(view.project.unsaved).toBe(true);
    expect(view.recordingSettings.locatorOrder.slice(0, 3)).toEqual(["qa", "id", "css:testId"]);
    expect(logsOf(ide).filter((entry) => entry.level === "error")).toEqual([]);
  });

  it("leave the project saved when the user sets what it has already, and say so", () => {
    const ide = createIde({ project: { ...shopProject(), locatorOrder: ["id"] } });
    ide.send({ type: "user.changeSettings", locatorOrder: ["id"] });
    expect(ide.getSnapshot().project.unsaved).toBe(false);
    expect(logsOf(ide).at(-1)).toMatchObject({ level: "warn", message: "The recording settings are already so. Nothing was changed." });
  });
});

describe("the project's heal setting", () => {
  // One click whose target found nothing and which another locator found: the page says it healed.
  const healingProject = () => ({
    id: "p-heal",
    name: "heal",
    version: "2.0",
    url: "http://127.0.0.1:1",
    tests: [{ id: "t", name: "buys", commands: [{ id: "c1", command: "click", target: "id=buy", targets: [["css=.buy", "css:finder"]], value: "" }] }],
  });
  const healedExecutor = () => fakeExecutor({ answer: () => ({ state: "passed", healed: { locator: "css=.buy", score: 1 } }) });
  async function played(ide: Ide) {
    const before = ide.getSnapshot().playback?.runId ?? null;
    ide.send({ type: "user.startPlayback", testId: "t" });
    await expect.poll(() => ide.getSnapshot().playback?.runId !== before && ide.getSnapshot().playback?.status === "ended").toBe(true);
    return ide.getSnapshot().playback!.commands[0];
  }

  it("is on by default, and turning it off makes the project unsaved, is saved as heal: false and fails the next healed command", async () => {
    const saves: Array<Record<string, unknown>> = [];
    const ide = createIde({ project: healingProject(), executor: healedExecutor(), save: async (project) => void saves.push(project as never) });
    expect(ide.getSnapshot().healing).toEqual({ project: true, forcedOff: false });
    expect(await played(ide)).toMatchObject({ state: "passed", healed: { locator: "css=.buy", score: 1 } });

    ide.send({ type: "user.changeSettings", heal: false });
    expect(ide.getSnapshot().healing).toEqual({ project: false, forcedOff: false });
    expect(ide.getSnapshot().project.unsaved).toBe(true);
    const failed = await played(ide);
    expect(failed.state).toBe("failed");
    expect(failed.message).toBe("click: id=buy found nothing; css=.buy would have found the element (score 1.00), but healing is off.");
    ide.send({ type: "user.saveProject" });
    await expect.poll(() => saves.length).toBe(1);
    expect(saves[0].heal).toBe(false);

    ide.send({ type: "user.changeSettings", heal: true });
    expect(ide.getSnapshot().healing.project).toBe(true);
    expect(ide.getSnapshot().project.unsaved).toBe(true);
    expect(await played(ide)).toMatchObject({ state: "passed", healed: { locator: "css=.buy" } });
    ide.send({ type: "user.saveProject" });
    await expect.poll(() => saves.length).toBe(2);
    expect(saves[1]).not.toHaveProperty("heal");
  });

  it("leaves the project saved when healing is turned on where it is on already, and refuses what is not true or false", () => {
    const ide = createIde({ project: healingProject() });
    ide.send({ type: "user.changeSettings", heal: true });
    ide.send({ type: "user.changeSettings", heal: "no" } as never);
    expect(ide.getSnapshot().project.unsaved).toBe(false);
    expect(ide.getProject()).not.toHaveProperty("heal");
    const messages = logsOf(ide).filter((entry) => entry.level !== "info").map((entry) => entry.message);
    expect(messages).toEqual(["The recording settings are already so. Nothing was changed.", "The recording settings were not changed: heal must be a boolean."]);
  });

  it("is read from a loaded file, and shows that createIde's heal: false (--no-heal) turns healing off whatever the project says", async () => {
    const off = createIde({ project: { ...healingProject(), heal: false } });
    expect(off.getSnapshot().healing).toEqual({ project: false, forcedOff: false });
    const forced = createIde({ project: healingProject(), executor: healedExecutor(), heal: false });
    expect(forced.getSnapshot().healing).toEqual({ project: true, forcedOff: true });
    expect(await played(forced)).toMatchObject({ state: "failed" });
  });
});
