// The flake bench's slow app and its recorded tests stay one piece (bench/flake/): the tests are
// as a person records them (no waits), open only pages the app serves, and every element they
// name is one the app makes; the app's delays come from the seed alone.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { APP_PATHS, draw, FLAKE_SIDE, renderPage } from "../../bench/flake/app.ts";
import type { SideProject } from "../../bench/flake/players.ts";

const project = JSON.parse(readFileSync(FLAKE_SIDE, "utf8")) as SideProject;
const commands = project.tests.flatMap((test) => test.commands.map((command) => ({ test, ...command })));
/** Every page as served, the thank-you page's receipt included (the server writes it after the form post). */
const sources = [...APP_PATHS.map((path) => renderPage(path, "s", false) ?? ""), '<p id="receipt">'].join("\n");

describe("the flake bench's recorded tests", () => {
  it("are at least 30, each with at least one command after opening its page", () => {
    expect(project.tests.length).toBeGreaterThanOrEqual(30);
    for (const test of project.tests) expect(test.commands.length, test.name).toBeGreaterThan(1);
    expect(new Set(project.tests.map((t) => t.id)).size).toBe(project.tests.length);
  });

  it("hold no waitFor command and no pause: the player's own waits must carry them", () => {
    const waits = commands.filter((c) => /^(waitFor|pause|setSpeed)/.test(c.command)).map((c) => `${c.test.name}: ${c.command}`);
    expect(waits).toEqual([]);
  });

  it("each open a page the slow app serves, first", () => {
    for (const test of project.tests) {
      expect(test.commands[0].command, test.name).toBe("open");
      expect(APP_PATHS, test.name).toContain(test.commands[0].target);
    }
  });

  it("name only elements the slow app makes, by id and by link text", () => {
    const missing: string[] = [];
    for (const c of commands) {
      const id = /^id=(.+)$/.exec(c.target)?.[1] ?? /\[@id='([^']+)'\]/.exec(c.target)?.[1] ?? /^css=#([\w-]+)/.exec(c.target)?.[1];
      if (id !== undefined && !sources.includes(`id="${id}"`)) missing.push(`${c.test.name}: ${c.target}`);
      const link = /^linkText=(.+)$/.exec(c.target)?.[1];
      if (link !== undefined && !new RegExp(`<a [^>]*>${link}</a>`).test(sources)) missing.push(`${c.test.name}: ${c.target}`);
    }
    expect(missing).toEqual([]);
  });
});

describe("the slow app's delays", () => {
  it("are drawn from the seed alone: the same seed gives the same draws, another seed others", () => {
    const names = ["save", "spinner", "banner", "mover", "response"];
    const of = (seed: string) => names.map((name) => draw(seed, "/enable", name));
    expect(of("a")).toEqual(of("a"));
    expect(of("a")).not.toEqual(of("b"));
    for (const value of [...of("a"), ...of("b")]) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });

  it("reach the page with its seed, and none at all when settled", () => {
    expect(renderPage("/late", "seed-1", false)).toContain('"seed":"seed-1","settled":false');
    expect(renderPage("/late", "seed-1", true)).toContain('"settled":true');
    expect(renderPage("/nowhere", "seed-1", false)).toBeNull();
  });
});
