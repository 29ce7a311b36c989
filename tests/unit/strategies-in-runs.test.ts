// CONTRACT section 23 through createIde and its executor port: a run hands its page commands'
// declared locators to the executor as css=/xpath= while the view, the logs and an accepted
// repair keep them as written; and a run keeps the strategies it started with when the plugin
// that declared them leaves mid-run.
import { describe, expect, it, vi } from "vitest";
import { createIde } from "../../index.ts";
import type { Ide } from "../../index.ts";
import { runStartFor } from "../../machines/editor.targets.ts";
import { childActors, editorSnapshot } from "../../machines/ide.selectors.ts";
import type { PageCommandInput, PageOutcome } from "../../machines/testRunner.types.ts";
import { pluginStrategies } from "../../services/plugins/index.ts";
import type { PluginRegistry } from "../../services/plugins/index.ts";
import { fakeExecutor } from "../support/executor.ts";
import { playAndWait } from "../support/runs.ts";

const qa = { name: "qa", css: '[data-qa="{value}"]', attribute: "data-qa" };
const label = { name: "label", xpath: "//*[@aria-label='{value}']" };
const command = (id: string, name: string, target = "", value = "", targets: string[][] = []) => ({ id, command: name, target, targets, value });

const project = (locatorStrategies?: object[]) => ({
  id: "p",
  name: "Declared",
  url: "http://127.0.0.1:1",
  ...(locatorStrategies ? { locatorStrategies } : {}),
  tests: [
    {
      id: "t",
      name: "buys",
      commands: [
        command("c1", "open", "/shop"),
        command("c2", "click", "qa=buy", "", [["qa=buy", "qa"], ["label=Buy now", "label"]]),
        command("c3", "assertText", "qa=${which}", "bought"),
      ],
    },
  ],
});

/** What the executor was handed: each page command's target and its targets' locators. */
function handedTo() {
  const handed: Array<{ id: string; target: string; targets: string[] }> = [];
  const note = (input: PageCommandInput) => {
    const targets = ((input.command as { targets?: string[][] }).targets ?? []).map((t) => t[0]);
    handed.push({ id: input.command.id, target: input.command.target, targets });
  };
  return { handed, note };
}

describe("a run of a project that carries its locator strategies", () => {
  it("hands the executor css= and xpath=, and shows, logs and accepts the locator it healed by as written", async () => {
    const { handed, note } = handedTo();
    const executor = fakeExecutor({
      answer: (input): PageOutcome | undefined => {
        note(input);
        // The player found c2's element by its second locator, and says so by what it was handed.
        if (input.command.id === "c2") return { state: "passed", healed: { locator: (input.command.targets as string[][])[1][0], score: 1 } };
        return undefined;
      },
    });
    const ide = createIde({ executor, project: project([qa, label]), variables: { which: "done" } });
    const run = await playAndWait(ide, { type: "user.startPlayback" });

    expect(run.result).toBe("passed");
    expect(handed.find((h) => h.id === "c2")).toEqual({ id: "c2", target: 'css=[data-qa="buy"]', targets: ['css=[data-qa="buy"]', "xpath=//*[@aria-label='Buy now']"] });
    expect(handed.find((h) => h.id === "c3")!.target).toBe('css=[data-qa="done"]');
    expect(run.commands.map((c) => c.target)).toEqual(["/shop", "qa=buy", "qa=${which}"]);
    expect(run.commands[1].healed).toEqual({ locator: "label=Buy now", score: 1 });
    expect(ide.getSnapshot().logs.some((l) => l.level === "warn" && l.message.includes("label=Buy now did"))).toBe(true);

    ide.send({ type: "user.acceptHealed", commandId: "c2" });
    expect(ide.getProject().tests[0].commands[1].target).toBe("label=Buy now");
    ide.stop();
  });

  it("fails a command whose locator's strategy the project does not declare, naming it, and hands the executor nothing", async () => {
    const { handed, note } = handedTo();
    const ide = createIde({ executor: fakeExecutor({ answer: (input) => void note(input) }), project: project() });
    const run = await playAndWait(ide, { type: "user.startPlayback" });
    expect(run.result).toBe("failed");
    expect(run.commands[1]).toMatchObject({ state: "failed", message: expect.stringMatching(/unknown strategy "qa".*no plugin has declared it/) });
    expect(handed.map((h) => h.id)).toEqual(["c1"]);
    ide.stop();
  });
});

describe("a run started while a plugin declared a strategy", () => {
  /** An executor whose first page command waits until the test lets it go. */
  function heldExecutor() {
    const { handed, note } = handedTo();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const executor = fakeExecutor({
      answer: async (input): Promise<PageOutcome> => {
        note(input);
        if (input.command.id === "c1") await held;
        return { state: "passed" };
      },
    });
    return { executor, handed, release };
  }

  /** Starts the displayed test as the root does, with `registry`'s declarations over the project's. */
  function startWith(ide: Ide, registry: PluginRegistry) {
    const snapshot = ide.actor.getSnapshot();
    const start = runStartFor(editorSnapshot(snapshot).context, { type: "user.startPlayback" }, pluginStrategies(registry));
    if (!start.ok) throw new Error(start.problem);
    childActors(snapshot).suiteRunner.send(start.value);
  }

  it("plays the rest of the run with that strategy after the plugin left, and a run started after that fails without it", async () => {
    const { executor, handed, release } = heldExecutor();
    const ide = createIde({ executor, project: project(), variables: { which: "done" } });
    const registry: PluginRegistry = [{ id: "qa-plugin", registration: { name: "QA", version: "1.0.0" }, strategies: [qa] }];
    startWith(ide, registry);
    await vi.waitFor(() => expect(handed.map((h) => h.id)).toEqual(["c1"]));

    // The plugin goes while c1 plays: the root tells the run so, as it does when plugins leave.
    childActors(ide.actor.getSnapshot()).suiteRunner.send({ type: "plugins.changed", plugins: [] });
    release();
    await vi.waitFor(() => expect(ide.getSnapshot().playback?.status).toBe("ended"));
    const run = ide.getSnapshot().playback!;
    expect(run.result).toBe("passed");
    expect(handed.map((h) => h.target)).toEqual(["/shop", 'css=[data-qa="buy"]', 'css=[data-qa="done"]']);

    // Neither the project nor a plugin declares qa now.
    const again = await playAndWait(ide, { type: "user.startPlayback" });
    expect(again.result).toBe("failed");
    expect(again.commands[1].message).toMatch(/unknown strategy "qa"/);
    ide.stop();
  });
});
