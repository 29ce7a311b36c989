// Chrome Recorder's flows in (CONTRACT section 23): every step type and selector kind as the
// commands and locators the players play, the steps none plays kept and named, and a flow that
// is not one refused with where it is wrong and nothing loaded.
import { parse } from "@puppeteer/replay";
import { describe, expect, it } from "vitest";
import { flowToProject, selectorToLocator, selectorsToTargets } from "../../services/chromeRecorder/index.ts";
import { pollExpression } from "../../services/chromeRecorder/steps.ts";

const click = (selectors: unknown[], extra: Record<string, unknown> = {}) => ({ type: "click", selectors, offsetX: 3, offsetY: 4, ...extra });

function commandsOf(steps: unknown[], title = "t") {
  const result = flowToProject({ title, steps }, "flow.json");
  if (!result.ok) throw new Error(result.problem);
  return { commands: result.project.tests[0].commands.map((c) => ({ command: c.command, target: c.target, value: c.value })), warnings: result.warnings, project: result.project };
}

describe("a Chrome Recorder flow read as a test", () => {
  it("names the test by the flow's title, the project by the file and its url by the first navigation", () => {
    const { project } = commandsOf([{ type: "navigate", url: "https://shop.example/cart?x=1" }], "Buy a thing");
    expect(project.name).toBe("flow");
    expect(project.url).toBe("https://shop.example");
    expect(project.tests.map((t) => t.name)).toEqual(["Buy a thing"]);
    expect((project.suites[0] as { tests: string[] }).tests).toEqual([project.tests[0].id]);
  });

  it("plays setViewport, navigate, click, doubleClick, change, hover, scroll and close as Selenium's commands", () => {
    const { commands, warnings } = commandsOf([
      { type: "setViewport", width: 800, height: 600, deviceScaleFactor: 1, isMobile: false, hasTouch: false, isLandscape: false },
      { type: "navigate", url: "http://127.0.0.1/a.html" },
      click(["#go"]),
      click(["#go"], { count: 2 }),
      { type: "doubleClick", selectors: ["#go"], offsetX: 1, offsetY: 1 },
      { type: "change", selectors: ["#name"], value: "Ada" },
      { type: "hover", selectors: ["#menu"] },
      { type: "scroll", x: 0, y: 250 },
      { type: "close" },
    ]);
    expect(commands).toEqual([
      { command: "setWindowSize", target: "800x600", value: "" },
      { command: "open", target: "http://127.0.0.1/a.html", value: "" },
      { command: "click", target: "id=go", value: "" },
      { command: "doubleClick", target: "id=go", value: "" },
      { command: "doubleClick", target: "id=go", value: "" },
      { command: "type", target: "id=name", value: "Ada" },
      { command: "mouseOver", target: "id=menu", value: "" },
      { command: "executeScript", target: "window.scroll(0, 250)", value: "" },
      { command: "close", target: "", value: "" },
    ]);
    expect(warnings).toEqual([]);
  });

  it("sends a run of keys to the element the step before acted on, keys as ${KEY_...} and characters as text", () => {
    const keys = ["Shift", "a"].flatMap((key) => [{ type: "keyDown", key }]).concat([{ type: "keyUp", key: "a" }, { type: "keyUp", key: "Shift" }]);
    const { commands } = commandsOf([
      { type: "change", selectors: ["#q"], value: "x" },
      ...keys,
      { type: "keyDown", key: "Enter" },
      { type: "keyUp", key: "Enter" },
    ]);
    expect(commands[1]).toEqual({ command: "sendKeys", target: "id=q", value: "${KEY_SHIFT}a${KEY_SHIFT}${KEY_ENTER}" });
    expect(commands).toHaveLength(2);
  });

  it("waits for an element as present or not present, with the step's timeout, and polls a waitForExpression", () => {
    const { commands } = commandsOf(
      [
        { type: "waitForElement", selectors: ["#a"] },
        { type: "waitForElement", selectors: ["#a"], visible: false, timeout: 900 },
        { type: "waitForElement", selectors: ["#a"], operator: "==", count: 0 },
        { type: "waitForExpression", expression: "window.ready" },
      ].map((s) => s),
    );
    expect(commands.slice(0, 3)).toEqual([
      { command: "waitForElementPresent", target: "id=a", value: "5000" },
      { command: "waitForElementNotPresent", target: "id=a", value: "900" },
      { command: "waitForElementNotPresent", target: "id=a", value: "5000" },
    ]);
    expect(commands[3].command).toBe("executeAsyncScript");
    expect(pollExpression(commands[3].target)).toBe("window.ready");
  });

  it("selects the frame a step names, and back to the top for a step in the page", () => {
    const { commands } = commandsOf([click(["#in"], { frame: [1, 0] }), click(["#in"], { frame: [1, 0] }), click(["#out"])]);
    expect(commands.map((c) => `${c.command} ${c.target}`)).toEqual([
      "selectFrame index=1", "selectFrame index=0", "click id=in", "click id=in", "selectFrame relative=top", "click id=out",
    ]);
  });

  it("follows a popup as our recorder does: the click that opened it opens a window, and selectWindow goes to it and back", () => {
    const popup = "http://127.0.0.1/popup.html";
    const result = flowToProject({ title: "t", steps: [click(["#open"]), click(["#in"], { target: popup }), { type: "close", target: popup }, click(["#back"], { target: "main" })] }, "f.json");
    if (!result.ok) throw new Error(result.problem);
    const commands = result.project.tests[0].commands as Array<Record<string, unknown>>;
    expect(commands.map((c) => `${c.command} ${c.target}`)).toEqual([
      "storeWindowHandle win_ser_local", "click id=open", "selectWindow handle=${win_ser_1}", "click id=in", "close ", "selectWindow handle=${win_ser_local}", "click id=back",
    ]);
    expect(commands[1]).toMatchObject({ opensWindow: true, windowHandleName: "win_ser_1" });
  });

  it("asserts the title a navigation step's asserted events name", () => {
    const { commands } = commandsOf([{ type: "navigate", url: "http://127.0.0.1/", assertedEvents: [{ type: "navigation", url: "http://127.0.0.1/", title: "Home" }] }]);
    expect(commands.map((c) => c.command)).toEqual(["open", "assertTitle"]);
    expect(commands[1].target).toBe("Home");
  });

  it("keeps the steps no command plays as disabled commands that say why, each named in a warning", () => {
    const result = flowToProject(
      {
        title: "t",
        steps: [
          click(["#a"], { button: "secondary" }),
          { type: "scroll", selectors: ["#list"], x: 0, y: 10 },
          { type: "waitForElement", selectors: ["#a"], operator: ">=", count: 3 },
          { type: "emulateNetworkConditions", download: 1, upload: 1, latency: 1 },
          { type: "customStep", name: "lighthouse", parameters: {} },
          { type: "keyDown", key: "AudioVolumeMute" },
        ],
      },
      "f.json",
    );
    if (!result.ok) throw new Error(result.problem);
    const commands = result.project.tests[0].commands as Array<Record<string, unknown>>;
    expect(commands.map((c) => c.command)).toEqual(["//click", "//scroll", "//waitForElement", "//emulateNetworkConditions", "//customStep", "//sendKeys"]);
    expect(commands.every((c) => typeof c.comment === "string" && / not play: /.test(c.comment as string))).toBe(true);
    expect(result.warnings.map((w) => w.split(":")[0])).toEqual([
      "step 1 (click)", "step 2 (scroll)", "step 3 (waitForElement)", "step 4 (emulateNetworkConditions)", "step 5 (customStep)", "steps 6 to 6 (keyDown/keyUp)",
    ]);
  });

  it("reads back the customStep comment export writes as the command itself", () => {
    const { commands } = commandsOf([{ type: "customStep", name: "seleniumIde", parameters: { command: "storeText", target: "id=a", value: "v" } }]);
    expect(commands).toEqual([{ command: "storeText", target: "id=a", value: "v" }]);
  });

  it("keeps each step as the file had it on its command", () => {
    const step = click(["#a"], { duration: 80, deviceType: "mouse", timeout: 700, target: "main" });
    const { project } = commandsOf([step]);
    expect((project.tests[0].commands[0] as { chromeStep?: unknown }).chromeStep).toEqual(step);
  });
});

describe("Chrome Recorder selectors as locators", () => {
  it("says each kind as the closest locator the players play", () => {
    expect(selectorToLocator("#user")).toEqual({ locator: "id=user", kind: "id", faithful: true });
    expect(selectorToLocator(["form > input.name"])?.locator).toBe("css=form > input.name");
    expect(selectorToLocator(['[name="q"]'])?.locator).toBe("name=q");
    expect(selectorToLocator(["my-app", "my-form", "#field"])?.locator).toBe("css=my-app >>> my-form >>> #field");
    expect(selectorToLocator("xpath///div[@id='x']")?.locator).toBe("xpath=//div[@id='x']");
    expect(selectorToLocator("pierce/.deep")).toEqual({ locator: "css=.deep", kind: "css:pierce", faithful: false });
    expect(selectorToLocator("aria/Save[role=\"button\"]")?.locator).toMatch(/^xpath=\/\/\*\[self::button .* or @role='button'\]\[@aria-label='Save'/);
    expect(selectorToLocator("aria/Name")?.locator).toContain("@aria-label='Name'");
    expect(selectorToLocator("aria/Name:")?.locator).toContain("not(self::label) and normalize-space(.)='Name:'");
    expect(selectorToLocator("text/Sign in")?.locator).toContain("contains(normalize-space(.), 'Sign in')");
  });

  it("has no locator for puppeteer's own pseudo-elements, a non-CSS part in a shadow path or CSS that does not parse", () => {
    expect(selectorToLocator("div::-p-text(Hi)")).toBeNull();
    expect(selectorToLocator(["my-app", "aria/Go"])).toBeNull();
    expect(selectorToLocator("div[")).toBeNull();
  });

  it("puts the first selector that finds what puppeteer finds as the target, and every one in targets", () => {
    const mapped = selectorsToTargets([["pierce/#a"], ["aria/A"], ["#a"], ["div::-p-text(A)"]]);
    if (!mapped.ok) throw new Error(mapped.problem);
    expect(mapped.target).toMatch(/^xpath=/);
    expect(mapped.targets.map((t) => t[1])).toEqual(["xpath:aria", "css:pierce"]);
    expect(mapped.notes).toHaveLength(1);
  });
});

describe("a file that is not a usable flow", () => {
  it("says where a flow is wrong and loads nothing", () => {
    expect(flowToProject([1], "f.json")).toEqual({ ok: false, problem: "@puppeteer/replay refuses it: Recording is missing `title`" });
    expect(flowToProject({ title: "t" }, "f.json")).toEqual({ ok: false, problem: "@puppeteer/replay refuses it: Recording is missing `steps`" });
    expect(flowToProject({ title: "t", steps: {} }, "f.json")).toMatchObject({ ok: false, problem: expect.stringContaining("`steps` is not an array") });
    expect(flowToProject({ title: "t", steps: [click(["#a"]), { type: "click", selectors: ["#a"] }] }, "f.json")).toEqual({
      ok: false,
      problem: "step 2 is not a Chrome Recorder step: Step.offsetX is not a number",
    });
    expect(flowToProject({ title: "t", steps: [{ type: "fly" }] }, "f.json")).toEqual({ ok: false, problem: "step 1 is not a Chrome Recorder step: Step type fly is not supported" });
  });

  it("refuses a step whose selectors none of the kinds can say, naming the step", () => {
    const result = flowToProject({ title: "t", steps: [click(["#a"]), click(["div::-p-aria(Go)"])] }, "f.json");
    expect(result).toMatchObject({ ok: false, problem: expect.stringMatching(/^step 2 \(click\): none of its selectors/) });
  });

  it("checks flows as @puppeteer/replay's own parse does", () => {
    const flow = { title: "t", steps: [{ type: "waitForElement", selectors: ["#a"], operator: "!=" }] };
    expect(() => parse(flow)).toThrow(/operator/);
    expect(flowToProject(flow, "f.json")).toMatchObject({ ok: false, problem: expect.stringContaining("operator is not one of") });
  });
});
