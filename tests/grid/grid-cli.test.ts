// `npm run grid` as docs/grid.md and the README tell a user to run it, and `npm start`'s
// `--capabilities`: real processes, their printed lines and exit codes.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killLeftovers, ROOT, runScript, waitForOutput } from "../support/processes.ts";
import type { Run } from "../support/processes.ts";

const SCRIPTS = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

/** An `npm run NAME -- ARGS` or `npm start -- ARGS` line, run as npm would: its script's `tsx FILE`, under this Node. */
function runNpm(line: string): Run {
  const words = line.trim().split(/\s+/);
  expect(words[0]).toBe("npm");
  const [name, rest] = words[1] === "run" ? [words[2], words.slice(3)] : [words[1], words.slice(2)];
  const script = SCRIPTS[name];
  expect(script, `package.json has the script ${name}`).toMatch(/^tsx \S+$/);
  return runScript(script.split(" ")[1], rest[0] === "--" ? rest.slice(1) : rest);
}

afterEach(killLeftovers);

/** The commands of docs/grid.md's first sh block, comments dropped. */
function gridDocCommands(): string[] {
  const block = readFileSync(join(ROOT, "docs", "grid.md"), "utf8").match(/```sh\n([\s\S]*?)```/)![1];
  return block
    .split("\n")
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter(Boolean);
}

describe("npm run grid", () => {
  it("starts the Grid the docs describe, which npm start then takes as its page under test, and both stop on Ctrl-C", async () => {
    const [gridLine, startLine] = gridDocCommands();
    expect(gridLine).toBe("npm run grid");
    expect(startLine).toBe("npm start -- --webdriver-url http://127.0.0.1:PORT");
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain("`npm run grid`");

    const grid = runNpm(gridLine);
    const [, url] = await waitForOutput(grid, /selenium grid {2}(http:\/\/127\.0\.0\.1:(\d+))\n/);
    const status = (await (await fetch(`${url}/status`)).json()) as { value: { ready: boolean; nodes: unknown[] } };
    expect(status.value.ready).toBe(true);
    expect(status.value.nodes).toHaveLength(1);

    const port = url.split(":").pop()!;
    const dir = mkdtempSync(join(tmpdir(), "ide-core-grid-cli-"));
    const host = runNpm(`${startLine.replace("PORT", port)} --port 0 --token-file ${join(dir, "token")}`);
    await waitForOutput(host, /Press Ctrl-C to stop\./);
    expect(host.output()).toContain(`page under test a browser from the WebDriver endpoint ${url}`);

    host.child.kill("SIGINT");
    grid.child.kill("SIGINT");
    expect(await host.exited).toBe(0);
    expect(await grid.exited).toBe(0);
    expect(grid.output()).toContain("Stopping the Grid and its browsers.");
    // The Grid's processes are gone with it.
    await expect(fetch(`${url}/status`)).rejects.toThrow();
  }, 120_000);

  it("refuses a bad option in one line with exit code 2", async () => {
    const run = runNpm("npm run grid -- --max-sessions 0");
    expect(await run.exited).toBe(2);
    expect(run.output().split("\n")[0]).toBe('npm run grid: --max-sessions must be a whole number of at least 1, not "0"');
  });
});

describe("npm start --capabilities", () => {
  it("refuses capabilities that are not a JSON object before the host starts", async () => {
    for (const [given, words] of [
      ["{browserName", "--capabilities is not JSON"],
      ["[1,2]", "--capabilities must be a JSON object"],
    ]) {
      const run = runNpm(`npm start -- --port 0 --capabilities ${given}`);
      expect(await run.exited).toBe(1);
      expect(run.output().split("\n")[0]).toContain(`npm start: ${words}`);
      expect(run.output()).not.toContain("ide-core is running");
    }
  });
});
