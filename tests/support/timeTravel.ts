// What the time-travel browser tests share: a shop on 127.0.0.1, a project written for it to a
// file, and npm start with that project as a newcomer starts it, in hooks for the whole file;
// and the wait for a command's picture in the IDE page.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { servePages } from "./browserPages.ts";
import { freshNpmStart } from "./freshHost.ts";
import type { FreshHost } from "./freshHost.ts";
import { killLeftovers } from "./processes.ts";

/** A command of a .side test. */
export const command = (id: string, name: string, target = "", value = "") => ({ id, command: name, target, targets: [], value });

/** The host the hooks started: `ui` is its IDE page. */
export interface TravelHost {
  readonly ui: Page;
}

/**
 * Registers the file's hooks: `pages` served, the project `projectAt(origin)` gives written to a
 * file, and npm start with `--project` that file; stopped, and leftovers killed, after the file.
 */
export function useHostWithProject(pages: Record<string, string>, projectAt: (origin: string) => object): TravelHost {
  let site: Awaited<ReturnType<typeof servePages>> | null = null;
  let fresh: FreshHost | null = null;
  beforeAll(async () => {
    site = await servePages(pages);
    const file = join(mkdtempSync(join(tmpdir(), "ide-core-travel-")), "project.side");
    writeFileSync(file, JSON.stringify(projectAt(site.origin)));
    fresh = await freshNpmStart(undefined, ["--project", file]);
  }, 120_000);
  afterAll(async () => {
    await fresh?.stop();
    await site?.close();
    killLeftovers();
  });
  return {
    get ui() {
      return fresh!.ui;
    },
  };
}

/** The picture named for the command, once it has loaded from the host (its pixels, not only its element); its address. */
export async function shownPicture(ui: Page, name: string): Promise<string> {
  const image = ui.getByRole("img", { name, exact: true });
  await image.waitFor({ timeout: 10_000 });
  await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth), { timeout: 10_000 }).toBeGreaterThan(0);
  return (await image.getAttribute("src"))!;
}
