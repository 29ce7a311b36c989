// Playing the torture cases (torturePage.ts) as a user's project would be played: each case is
// a test of one .side project, and a run of createIde over a page under test (the host's
// browser page, local or through a Grid) gives every command's state and message.
import { createIde } from "../../index.ts";
import type { Executor } from "../../core/ports.ts";
import { playAndWait } from "./runs.ts";
import { TORTURE_CASES } from "./torturePage.ts";
import type { TortureCase } from "./torturePage.ts";

/** The .side project with one test per case (test id `t<index>`), its URL `origin`, and a suite of them all (`s-torture`). */
export function tortureProject(origin: string, cases: TortureCase[] = TORTURE_CASES) {
  return {
    id: "torture",
    name: "Torture",
    url: origin,
    version: "2.0",
    urls: [origin],
    plugins: [],
    suites: [{ id: "s-torture", name: "Torture", persistSession: false, parallel: false, timeout: 300, tests: cases.map((_, i) => `t${i}`) }],
    tests: cases.map((tcase, i) => ({
      id: `t${i}`,
      name: tcase.name,
      commands: tcase.commands.map((command, j) => ({ id: `t${i}c${j}`, ...command })),
    })),
  };
}

export type PlayedCommand = { command: string; target: string; state: string | null; message?: string };

/** Plays the cases in one createIde over `executor`, one run per case, and gives each case's commands as they ended. */
export function tortureIde(executor: Executor, origin: string, cases: TortureCase[] = TORTURE_CASES) {
  const ide = createIde({ project: tortureProject(origin, cases), executor });
  return {
    async play(index: number): Promise<PlayedCommand[]> {
      const playback = await playAndWait(ide, { type: "user.startPlayback", testId: `t${index}` });
      return playback.commands.map((c) => ({
        command: c.command,
        target: c.target,
        state: c.state,
        ...(c.message ? { message: c.message } : {}),
      }));
    },
    stop: () => ide.stop(),
  };
}

/** What a green run of the case shows: every command passed. */
export const allPassed = (tcase: TortureCase): PlayedCommand[] =>
  tcase.commands.map((c) => ({ command: c.command, target: c.target, state: "passed" }));
