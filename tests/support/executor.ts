// A fake page under test for the executor port (createIde({ executor })): it records every
// page command and condition it is handed and answers as a test scripts it. By default every
// command passes, `store*` commands store their target's text, and a condition is evaluated
// as JavaScript over its arguments (tests are trusted code; the real executors run conditions
// in the page under test).
import type { Executor, PageIds } from "../../core/ports.ts";
import type { PageCommandInput, PageOutcome } from "../../machines/testRunner.types.ts";
import { interpolate } from "../../services/playback/variables.ts";

export interface FakeExecutorOptions {
  /** The outcome of a command; return undefined for the default (passed). */
  answer?: (input: PageCommandInput) => PageOutcome | Promise<PageOutcome> | undefined;
  /** Commands (by name) that never settle until the run lets go of them. */
  hang?: ReadonlySet<string>;
  pageIds?: PageIds;
}

export interface FakeExecutor extends Executor {
  /** Every page command as executed: name, and target and value with `${...}` replaced. */
  readonly executed: Array<{ id: string; command: string; target: string; value: string }>;
  /** Every condition evaluated, after `${...}` became arguments. */
  readonly conditions: Array<{ script: string; argv: unknown[] }>;
  /** Commands that were let go of (stopped) while they executed. */
  readonly aborted: string[];
}

export function fakeExecutor(options: FakeExecutorOptions = {}): FakeExecutor {
  const executed: FakeExecutor["executed"] = [];
  const conditions: FakeExecutor["conditions"] = [];
  const aborted: string[] = [];
  return {
    executed,
    conditions,
    aborted,
    async execute(input, signal) {
      const { id, command, target, value } = input.command;
      executed.push({ id, command, target: interpolate(target, input.variables), value: interpolate(value, input.variables) });
      if (options.hang?.has(command)) {
        return new Promise<PageOutcome>((_, reject) => {
          signal.addEventListener("abort", () => {
            aborted.push(id);
            reject(new Error("aborted"));
          });
        });
      }
      const scripted = await options.answer?.(input);
      if (scripted) return scripted;
      if (command.startsWith("store") && value) return { state: "passed", variables: { [value]: interpolate(target, input.variables) } };
      return { state: "passed" };
    },
    async evaluate({ script, argv }) {
      conditions.push({ script, argv });
      return Boolean(new Function(`return (${script});`).apply(null, argv));
    },
    pageIds: options.pageIds ? () => options.pageIds! : undefined,
  };
}
