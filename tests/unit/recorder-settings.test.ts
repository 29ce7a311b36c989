// The recording settings on their way to the recorder in the page (CONTRACT section 18): what
// the extension's window sends with recorder.start and what the host puts into the recorder's
// world are read as lists of strings, and anything else gives the builders' defaults.
import { describe, expect, it } from "vitest";
import { readRecorderSettings } from "../../drivers/recorder/report.ts";
import { readRecorderControl } from "../../drivers/webextension/recording.ts";

describe("the recorder's settings", () => {
  it("come with the extension's start, and a stop carries none", () => {
    const settings = { locatorOrder: ["name", "id"], testIdAttributes: ["data-e2e"] };
    expect(readRecorderControl({ type: "recorder.start", settings })).toEqual({ control: "start", settings });
    expect(readRecorderControl({ type: "recorder.stop" })).toEqual({ control: "stop" });
    expect(readRecorderControl({ type: "recorder.action" })).toBeNull();
  });

  it("are the defaults where what came is not a list of strings", () => {
    expect(readRecorderSettings(undefined)).toEqual({});
    expect(readRecorderSettings({ locatorOrder: "id", testIdAttributes: [1] })).toEqual({ locatorOrder: undefined, testIdAttributes: undefined });
    expect(readRecorderControl({ type: "recorder.start" })).toEqual({ control: "start", settings: {} });
  });

  it("carry the declared strategies the recorder can build, and leave out one without a name, an attribute or a template", () => {
    const qa = { name: "qa", attribute: "data-qa", css: '[data-qa="{value}"]' };
    const row = { name: "row", attribute: "data-row", xpath: "//tr[@data-row='{value}']" };
    const strategies = [qa, row, { name: "bare", css: '[x="{value}"]' }, { name: "none", attribute: "x" }, "qa", null];
    expect(readRecorderSettings({ strategies }).strategies).toEqual([qa, row]);
    expect(readRecorderControl({ type: "recorder.start", settings: { strategies: [qa] } })).toEqual({ control: "start", settings: { strategies: [qa] } });
  });
});
