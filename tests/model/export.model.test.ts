// The export machine on its own, with stand-in ports: which states it goes through for each
// kind of export, and that it asks the plugins before the packages write, once each.
import { describe, expect, it } from "vitest";
import { createActor, fromPromise, toPromise } from "xstate";
import { exportMachine } from "../../machines/export.machine.ts";
import type { AskPluginsInput, AskPluginsOutput, ExportInput, WriteFileInput, WriteFileOutput } from "../../machines/export.types.ts";
import type { PluginRegistry } from "../../services/plugins/index.ts";
import { shopProject } from "../export/support.ts";

const EYES: PluginRegistry = [
  { id: "eyes", registration: { name: "Eyes", version: "1", commands: [{ id: "eyesCheckWindow", name: "check" }], exports: { languages: ["java-junit"] } } },
];

async function run(input: Partial<ExportInput>, ports: { answers?: (input: AskPluginsInput) => AskPluginsOutput; written?: WriteFileOutput } = {}) {
  const calls: string[] = [];
  const machine = exportMachine.provide({
    actors: {
      askPlugins: fromPromise<AskPluginsOutput, AskPluginsInput>(async ({ input: asked }) => {
        calls.push(`ask ${asked.questions.length}`);
        return ports.answers ? ports.answers(asked) : asked.questions.map(() => ({ answered: true as const, answer: "code()" }));
      }),
      writeFile: fromPromise<WriteFileOutput, WriteFileInput>(async ({ input: written }) => {
        calls.push(`write ${written.plugins?.commands.size ?? "none"}`);
        return ports.written ?? { filename: "LogsinTest.java", body: "// body" };
      }),
    },
  });
  const states: string[] = [];
  const actor = createActor(machine, {
    input: { language: "java-junit", scope: { testId: "t-login" }, project: shopProject(), plugins: [], ...input },
  });
  actor.subscribe((snapshot) => states.push(String(snapshot.value)));
  const output = toPromise(actor);
  actor.start();
  return { outcome: await output, states: [...new Set(states)], calls };
}

describe("the export machine", () => {
  it("writes at once when no plugin exports the language", async () => {
    const { outcome, states, calls } = await run({});
    expect(states).toEqual(["writing", "done"]);
    expect(calls).toEqual(["write none"]);
    expect(outcome).toEqual({ filename: "LogsinTest.java", body: "// body", warnings: [] });
  });

  it("asks the plugins first, then writes with their code", async () => {
    const { states, calls } = await run({ plugins: EYES });
    expect(states).toEqual(["askingPlugins", "writing", "done"]);
    expect(calls).toEqual(["ask 9", "write 1"]);
  });

  it("fails an unknown test before asking anyone", async () => {
    const { outcome, states, calls } = await run({ plugins: EYES, scope: { testId: "nope" } });
    expect(states).toEqual(["failed"]);
    expect(calls).toEqual([]);
    expect(outcome).toMatchObject({ errorCode: "UnknownTest" });
  });

  it("fails without writing when a plugin's command answer is an error", async () => {
    const { outcome, states, calls } = await run(
      { plugins: EYES },
      { answers: (asked) => asked.questions.map((q) => ({ answered: true as const, answer: q.command ? { error: "no key" } : undefined })) },
    );
    expect(states).toEqual(["askingPlugins", "failed"]);
    expect(calls).toEqual(["ask 9"]);
    expect(outcome).toMatchObject({ errorCode: "ExportFailed", error: "Test 'logs in' has a problem: no key (the plugin Eyes)" });
  });

  it("ends failed when the packages refuse the test, and done otherwise", async () => {
    const { outcome, states } = await run({}, { written: { errorCode: "ExportFailed", error: "Test 'logs in' has a problem: Invalid command 'x'" } });
    expect(states).toEqual(["writing", "failed"]);
    expect(outcome).toMatchObject({ errorCode: "ExportFailed" });
  });

  it("passes on the warnings of hooks a plugin did not answer", async () => {
    const { outcome } = await run(
      { plugins: EYES },
      { answers: (asked) => asked.questions.map((q) => (q.command ? { answered: true as const, answer: "x()" } : { answered: false as const, reason: "timed out" })) },
    );
    expect(outcome.warnings).toHaveLength(8);
    expect(outcome).toMatchObject({ filename: "LogsinTest.java" });
  });
});
