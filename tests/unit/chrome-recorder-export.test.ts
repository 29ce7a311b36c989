// Chrome Recorder's flows out, and both round trips (CONTRACT section 23): a flow imported and
// exported keeps its steps, order, selectors and offsets; a .side test exported and imported
// keeps its commands and targets where the format holds them.
import { parse } from "@puppeteer/replay";
import { describe, expect, it } from "vitest";
import { flowToProject, locatorToSelector, testToFlow } from "../../services/chromeRecorder/index.ts";
import { newProject } from "../../services/side/index.ts";
import type { SideProject } from "../../services/side/index.ts";

const POPUP = "http://127.0.0.1:9/popup.html";
// A flow as Chrome's Recorder writes one, with every step type and selector kind.
const RECORDED = {
  title: "Every step",
  timeout: 8000,
  steps: [
    { type: "setViewport", width: 1280, height: 720, deviceScaleFactor: 1, isMobile: false, hasTouch: false, isLandscape: false },
    { type: "navigate", url: "http://127.0.0.1:9/form.html", assertedEvents: [{ type: "navigation", url: "http://127.0.0.1:9/form.html", title: "Form" }] },
    { type: "click", target: "main", selectors: [["aria/Name"], ["#name"], ["xpath///*[@id=\"name\"]"], ["pierce/#name"], ["text/Name"]], offsetX: 17, offsetY: 9 },
    { type: "change", target: "main", selectors: [["#name"]], value: "Ada" },
    { type: "keyDown", target: "main", key: "Enter" },
    { type: "keyUp", target: "main", key: "Enter" },
    { type: "click", selectors: [["my-app", "#deep"]], offsetX: 1, offsetY: 2, count: 2 },
    { type: "doubleClick", selectors: [["#d"]], offsetX: 1, offsetY: 2, duration: 40 },
    { type: "hover", selectors: [["aria/Menu[role=\"button\"]"]], frame: [0] },
    { type: "scroll", x: 0, y: 300 },
    { type: "scroll", selectors: [["#list"]], x: 0, y: 40 },
    { type: "waitForElement", selectors: [["#done"]], timeout: 2000 },
    { type: "waitForElement", selectors: [["#gone"]], operator: "==", count: 0 },
    { type: "waitForElement", selectors: [["li"]], operator: ">=", count: 3 },
    { type: "waitForExpression", expression: "document.readyState === 'complete'" },
    { type: "click", selectors: [["#popup"]], offsetX: 1, offsetY: 1 },
    { type: "click", target: POPUP, selectors: [["#ok"]], offsetX: 1, offsetY: 1 },
    { type: "close", target: POPUP },
    { type: "click", target: "main", selectors: [["#x"]], offsetX: 1, offsetY: 1, button: "secondary" },
    { type: "emulateNetworkConditions", download: 1000, upload: 1000, latency: 20 },
    { type: "customStep", name: "lighthouse", parameters: { mode: "snapshot" } },
  ],
};

function imported(flow: unknown): SideProject {
  const result = flowToProject(flow, "flow.json");
  if (!result.ok) throw new Error(result.problem);
  return result.project;
}

function exported(project: SideProject, comments = false) {
  const result = testToFlow(project, project.tests[0].id, { comments });
  if (!result.ok) throw new Error(result.problem);
  return { flow: JSON.parse(result.text) as { title: string; steps: Array<Record<string, unknown>> }, warnings: result.warnings, filename: result.filename };
}

function sideTest(commands: Array<{ command: string; target?: string; value?: string; targets?: [string, string][] }>): SideProject {
  const project = newProject();
  project.url = "http://127.0.0.1:9";
  project.tests[0].name = "From side";
  project.tests[0].commands = commands.map((c, i) => ({ id: `c${i}`, target: "", value: "", ...c }));
  return project;
}

describe("a flow imported and exported again", () => {
  it("keeps every step, its order, selectors and offsets, as @puppeteer/replay reads them", () => {
    const { flow } = exported(imported(RECORDED));
    expect(parse(flow)).toEqual(parse(RECORDED));
  });

  it("writes the same flow for the project read back from its saved text, where nothing import learnt is at hand", () => {
    const project = imported(RECORDED);
    const reread = JSON.parse(JSON.stringify(project)) as SideProject;
    expect(testToFlow(reread, reread.tests[0].id, { comments: true })).toEqual(testToFlow(project, project.tests[0].id, { comments: true }));
  });

  it("writes a kept step edited into no step from its command instead", () => {
    const project = JSON.parse(JSON.stringify(imported({ title: "t", steps: [{ type: "click", selectors: [["#a"]], offsetX: 12, offsetY: 7 }] }))) as SideProject;
    Object.assign((project.tests[0].commands[0] as unknown as { chromeStep: Record<string, unknown> }).chromeStep, { offsetX: "twelve" });
    const { flow } = exported(project);
    expect(flow.steps).toEqual([{ type: "click", offsetX: 5, offsetY: 7, selectors: [["#a"]] }]);
  });

  it("keeps each step as a copy no one can change, so what import found of it stays true", () => {
    const step = { type: "click", selectors: [["#a"]], offsetX: 12, offsetY: 7 };
    const kept = (imported({ title: "t", steps: [step] }).tests[0].commands[0] as unknown as { chromeStep: Record<string, unknown> }).chromeStep;
    expect(kept).toEqual(step);
    expect(kept).not.toBe(step);
    expect(() => Object.assign(kept, { offsetX: 1 })).toThrow(TypeError);
    expect(() => (kept.selectors as string[][])[0].push("#b")).toThrow(TypeError);
  });

  it("writes a changed command from the command, keeping its click's offsets", () => {
    const project = imported({ title: "t", steps: [{ type: "click", selectors: [["#a"]], offsetX: 12, offsetY: 7 }] });
    project.tests[0].commands[0].target = "name=q";
    const { flow } = exported(project);
    expect(flow.steps).toEqual([{ type: "click", offsetX: 12, offsetY: 7, selectors: [['[name="q"]'], ["#a"]] }]);
  });
});

describe("a .side test exported as a flow", () => {
  const commands = [
    { command: "open", target: "/form.html" },
    { command: "setWindowSize", target: "1024x700" },
    { command: "click", target: "id=name", targets: [["id=name", "id"], ["css=#name", "css:finder"], ["xpath=//input[@id='name']", "xpath:attributes"]] as [string, string][] },
    { command: "type", target: "name=q", value: "ada" },
    { command: "sendKeys", target: "name=q", value: "${KEY_SHIFT}x${KEY_ENTER}" },
    { command: "doubleClick", target: "linkText=More" },
    { command: "mouseOver", target: "partialLinkText=Mo" },
    { command: "selectFrame", target: "index=0" },
    { command: "waitForElementPresent", target: "css=my-app >>> #deep", value: "3000" },
    { command: "waitForElementNotPresent", target: "xpath=//p[@class='spinner']", value: "5000" },
    { command: "selectFrame", target: "relative=top" },
    { command: "executeScript", target: "window.scroll(0, 120)" },
    { command: "close" },
  ];

  it("gives a flow @puppeteer/replay parses, with each command's step in the window and frame chosen", () => {
    const { flow, filename } = exported(sideTest(commands));
    expect(filename).toBe("From side.json");
    expect(() => parse(flow)).not.toThrow();
    expect(flow.steps.map((s) => s.type)).toEqual([
      "navigate", "setViewport", "click", "change", "keyDown", "keyDown", "keyUp", "keyDown", "keyUp", "keyUp", "doubleClick", "hover", "waitForElement", "waitForElement", "scroll", "close",
    ]);
    expect(flow.steps[0]).toEqual({ type: "navigate", url: "http://127.0.0.1:9/form.html" });
    expect(flow.steps[2]).toEqual({ type: "click", offsetX: 5, offsetY: 5, selectors: [["#name"], ["xpath///input[@id='name']"]] });
    expect(flow.steps[12]).toEqual({ type: "waitForElement", timeout: 3000, selectors: [["my-app", "#deep"]], frame: [0] });
    expect(flow.steps[13]).toMatchObject({ operator: "==", count: 0, frame: [0] });
    expect(flow.steps[14]).toEqual({ type: "scroll", x: 0, y: 120 });
  });

  it("comes back with its commands and targets", () => {
    const back = imported(exported(sideTest(commands)).flow).tests[0].commands;
    const shown = (c: { command: string; target: string; value: string }) => `${c.command}|${c.target}|${c.value}`;
    expect(back.map(shown)).toEqual([
      "open|http://127.0.0.1:9/form.html|", // the URL comes back absolute
      ...commands.slice(1).map((c) => shown({ target: "", value: "", ...c })).map((line) => line.replace(/^click\|id=name/, "click|id=name")),
    ]);
    expect((back[2] as { targets?: unknown }).targets).toEqual([["id=name", "id"], ["xpath=//input[@id='name']", "xpath:chrome"]]);
  });

  it("refuses commands with no step in one message naming each, or writes them as comments read back as themselves", () => {
    const project = sideTest([{ command: "open", target: "/" }, { command: "storeText", target: "id=a", value: "v" }, { command: "if", target: "${v} === 1" }, { command: "end" }]);
    const refused = testToFlow(project, project.tests[0].id);
    expect(refused).toEqual({
      ok: false,
      problem: 'the test "From side" has commands with no Chrome Recorder step: command 2 "storeText", command 3 "if", command 4 "end"; export with comments (--comments; "commands with no step as comments" in the IDE page\'s Export) to keep them as customSteps',
    });
    const { flow, warnings } = exported(project, true);
    expect(flow.steps[1]).toEqual({ type: "customStep", name: "seleniumIde", parameters: { command: "storeText", target: "id=a", value: "v" } });
    expect(warnings).toHaveLength(3);
    expect(imported(flow).tests[0].commands.map((c) => c.command)).toEqual(["open", "storeText", "if", "end"]);
  });

  it("asserts a title after a navigation as that navigation's asserted event, elsewhere as a wait for the title", () => {
    const { flow } = exported(sideTest([{ command: "open", target: "/" }, { command: "assertTitle", target: "Home" }, { command: "click", target: "id=a" }, { command: "assertTitle", target: 'Say "hi"' }]));
    expect(flow.steps[0]).toEqual({ type: "navigate", url: "http://127.0.0.1:9/", assertedEvents: [{ type: "navigation", title: "Home" }] });
    expect(flow.steps[2]).toEqual({ type: "waitForExpression", expression: 'document.title === "Say \\"hi\\""' });
  });

  it("refuses a window it knows no URL of, and a frame chosen by its element", () => {
    const windows = sideTest([{ command: "click", target: "id=a" }, { command: "selectWindow", target: "handle=${win_ser_1}" }]);
    expect(testToFlow(windows, windows.tests[0].id)).toMatchObject({ ok: false, problem: expect.stringContaining('command 2 "selectWindow" (a flow names a window by its URL') });
    const frames = sideTest([{ command: "selectFrame", target: "id=f" }]);
    expect(testToFlow(frames, frames.tests[0].id)).toMatchObject({ ok: false, problem: expect.stringContaining('command 1 "selectFrame"') });
  });
});

describe("locators as Chrome Recorder selectors", () => {
  it("writes each strategy the format can say", () => {
    expect(locatorToSelector("id=a:b")).toEqual(["#a\\:b"]);
    expect(locatorToSelector("id=1st")).toEqual(["#\\31 st"]);
    expect(locatorToSelector('name=say "x"')).toEqual(['[name="say \\"x\\""]']);
    expect(locatorToSelector("css=a >>> b")).toEqual(["a", "b"]);
    expect(locatorToSelector("//p")).toEqual(["xpath///p"]);
    expect(locatorToSelector("linkText=Help")).toEqual(["xpath///a[normalize-space(.)='Help']"]);
    expect(locatorToSelector("partialLinkText=He")).toEqual(["xpath///a[contains(normalize-space(.), 'He')]"]);
    expect(locatorToSelector("data-qa=x")).toBeNull();
  });

  it("reads back what it writes as the same locator", () => {
    for (const locator of ["id=a:b", "id=1st", 'name=say "x"', "css=a >>> b", "xpath=//p", "linkText=Help", "partialLinkText=He"]) {
      const project = sideTest([{ command: "click", target: locator }]);
      expect(imported(exported(project).flow).tests[0].commands[0].target).toBe(locator);
    }
  });
});
