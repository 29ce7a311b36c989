// The run's two machines in the UI's statecharts (drivers/view/charts.ts): the suite runner is
// the root's child `suiteRunner`, and the test runner, a child of the suite runner, is charted from
// its machine even before the first run, its state following the test playing.
import { describe, expect, it } from "vitest";
import { createIde } from "../../index.ts";
import { chartValues, machineCharts } from "../../drivers/view/charts.ts";
import { fakeExecutor, shopProject, waitForStatus } from "../protocol/support.ts";

describe("the run's statecharts", () => {
  it("charts the suite runner and the test runner's machine before any run, highlighting no test runner state", () => {
    const ide = createIde({ project: shopProject() });
    try {
      const charts = machineCharts(ide);
      expect(charts.map((c) => [c.actor, c.root.path])).toEqual([
        ["ide", "ide"],
        ["control", "control"],
        ["projectFile", "projectFile"],
        ["editor", "editor"],
        ["suiteRunner", "suiteRunner"],
        ["recording", "recording"],
        ["pointing", "pointing"],
        ["testRunner", "testRunner"],
      ]);
      const values = chartValues(ide);
      expect(values.suiteRunner).toBe("idle");
      expect("testRunner" in values).toBe(false);
    } finally {
      ide.stop();
    }
  });

  it("follows the test runner playing into its nested states, and keeps the last one's state once the run is over", async () => {
    const ide = createIde({ project: shopProject(), executor: fakeExecutor({ hang: new Set(["open"]) }) });
    try {
      ide.send({ type: "user.startSuite" });
      await waitForStatus(ide, "running");
      expect(chartValues(ide)).toMatchObject({ suiteRunner: { busy: "playing" }, testRunner: { live: { running: "pageCommand" } } });
      ide.send({ type: "user.stopPlayback" });
      await waitForStatus(ide, "ended");
      expect(chartValues(ide)).toMatchObject({ suiteRunner: "ended", testRunner: "ended" });
    } finally {
      ide.stop();
    }
  });
});
