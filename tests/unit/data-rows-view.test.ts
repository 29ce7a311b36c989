// CONTRACT section 22, "the IDE page shows the row being played": IdeView.playback.dataRows
// names each data block being played with its row and that row's values, through createIde
// with a fake page (whose `click` waits for the test to let it go) and a data file given by
// the readData port.
import { describe, expect, it, vi } from "vitest";
import { createIde, fakeExecutor, waitForStatus } from "../protocol/support.ts";
import type { Ide } from "../protocol/support.ts";
import type { PageOutcome } from "../../machines/testRunner.types.ts";

const c = (id: string, command: string, target = "", value = "") => ({ id, command, target, value });
const projectOf = (commands: ReturnType<typeof c>[]) => ({ id: "p", name: "P", url: "http://127.0.0.1:8080", tests: [{ id: "t", name: "rows", commands }] });

/** A page whose every `click` waits until the test lets it go; what the view showed during each. */
function heldClicks() {
  const waiting: Array<() => void> = [];
  const executor = fakeExecutor({
    answer: (input) => (input.command.command === "click" ? new Promise<PageOutcome>((resolve) => waiting.push(() => resolve({ state: "passed" }))) : undefined),
  });
  /** The view's dataRows during each click, letting each go, until the run ends. */
  async function during(ide: Ide) {
    const seen: unknown[] = [];
    for (;;) {
      await vi.waitFor(() => expect(waiting.length > 0 || ide.getSnapshot().playback?.status === "ended").toBe(true));
      if (waiting.length === 0) return seen;
      await new Promise((resolve) => setTimeout(resolve, 0));
      seen.push(ide.getSnapshot().playback?.dataRows);
      waiting.shift()!();
    }
  }
  return { executor, during };
}

describe("the row a data block plays, in the view", () => {
  it("shows each row in turn beside its loadVars, with its values, and none once the block is over", async () => {
    const rows = [
      { name: "Ada", age: "36" },
      { name: "Bob", age: "7" },
      { name: "Cy", age: "51" },
    ];
    const project = projectOf([c("load", "loadVars", "people.csv"), c("type", "type", "id=name", "${name}"), c("click", "click", "id=go"), c("end", "endLoadVars"), c("after", "click", "id=done")]);
    const page = heldClicks();
    const ide = createIde({ project, executor: page.executor, readData: async () => rows });
    ide.send({ type: "user.startPlayback", testId: "t" });
    expect(await page.during(ide)).toEqual([
      [{ commandId: "load", row: 1, rows: 3, values: { name: "Ada", age: "36" } }],
      [{ commandId: "load", row: 2, rows: 3, values: { name: "Bob", age: "7" } }],
      [{ commandId: "load", row: 3, rows: 3, values: { name: "Cy", age: "51" } }],
      [],
    ]);
    expect((await waitForStatus(ide, "ended")).dataRows).toEqual([]);
    ide.stop();
  });

  it("shows nested blocks outermost first", async () => {
    const project = projectOf([c("outer", "loadVars", "a.json"), c("inner", "loadVars", "b.json"), c("click", "click", "id=${a}${b}"), c("endInner", "endLoadVars"), c("endOuter", "endLoadVars")]);
    const files: Record<string, unknown[]> = { "a.json": [{ a: 1 }, { a: 2 }], "b.json": [{ b: "x" }] };
    const page = heldClicks();
    const ide = createIde({ project, executor: page.executor, readData: async (file) => files[file] as never });
    ide.send({ type: "user.startPlayback", testId: "t" });
    const seen = await page.during(ide);
    expect(seen[1]).toEqual([
      { commandId: "outer", row: 2, rows: 2, values: { a: 2 } },
      { commandId: "inner", row: 1, rows: 1, values: { b: "x" } },
    ]);
    ide.stop();
  });
});
