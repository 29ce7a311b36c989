// The torture page in the host (CONTRACT section 19, issue 26): every hard case of
// tests/support/torturePage.ts (shadow roots, frames, windows, hover menus, uploads, drag and
// drop, keys, late elements, sticky headers, ...) played as a run of a .side project plays,
// through the host's page under test with each player, "webdriver" (side-runtime's
// WebDriverExecutor) and "devtools" (the in-page player with trusted input), in headless
// Chromium: every command passes.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPage } from "../../drivers/host/browserPage.ts";
import type { PlayerKind, BrowserPage } from "../../drivers/host/browserPage.ts";
import { servePages } from "../support/browserPages.ts";
import { TORTURE_PAGES, UPLOAD_FILE } from "../support/torturePage.ts";
import { allPassed, tortureIde } from "../support/torturePlay.ts";
import { ACTIONABILITY_PAGES, casesOf } from "../support/actionabilityPages.ts";

const projectDir = mkdtempSync(join(tmpdir(), "ide-core-torture-"));
writeFileSync(join(projectDir, UPLOAD_FILE.name), UPLOAD_FILE.content);

let site: Awaited<ReturnType<typeof servePages>>;

beforeAll(async () => {
  site = await servePages({ ...TORTURE_PAGES, ...ACTIONABILITY_PAGES });
});

afterAll(async () => {
  await site?.close();
});

for (const player of ["webdriver", "devtools"] as PlayerKind[]) {
  describe(`the torture page in the host, player ${player}`, () => {
    let page: BrowserPage;
    let ide: ReturnType<typeof tortureIde>;

    beforeAll(() => {
      page = browserPage({ player, baseUrl: site.origin, implicitWaitMs: 2_000, uploads: { filesDir: null, projectDir } });
      ide = tortureIde(page, site.origin, casesOf(player));
    });

    afterAll(async () => {
      ide?.stop();
      await page?.close();
    });

    casesOf(player).forEach((tcase, index) => {
      it(`${tcase.name}: every command passes`, async () => {
        expect(await ide.play(index)).toEqual(allPassed(tcase));
      });
    });
  });
}
