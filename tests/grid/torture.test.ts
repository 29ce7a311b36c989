// The torture page through a real Selenium Grid (CONTRACT section 19, issue 26): every case of
// tests/support/torturePage.ts played as a run of a .side project, by the host's page under
// test over the Grid (`--webdriver-url`), with each player, "webdriver" and "devtools" (the
// in-page player over the node browser's DevTools, reached through `se:cdp`): every command
// passes, the upload too (the file is sent to the node first). One Grid serves both.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGrid } from "../../drivers/grid/grid.ts";
import type { Grid } from "../../drivers/grid/grid.ts";
import { browserPage } from "../../drivers/host/browserPage.ts";
import type { PlayerKind, BrowserPage } from "../../drivers/host/browserPage.ts";
import { servePages } from "../support/browserPages.ts";
import { TORTURE_PAGES, UPLOAD_FILE } from "../support/torturePage.ts";
import { allPassed, tortureIde } from "../support/torturePlay.ts";
import { ACTIONABILITY_PAGES, casesOf } from "../support/actionabilityPages.ts";

const projectDir = mkdtempSync(join(tmpdir(), "ide-core-grid-torture-"));
writeFileSync(join(projectDir, UPLOAD_FILE.name), UPLOAD_FILE.content);

let grid: Grid;
let site: Awaited<ReturnType<typeof servePages>>;

beforeAll(async () => {
  [grid, site] = await Promise.all([startGrid({ maxSessions: 2 }), servePages({ ...TORTURE_PAGES, ...ACTIONABILITY_PAGES })]);
}, 120_000);

afterAll(async () => {
  await site?.close();
  await grid?.stop();
}, 60_000);

for (const player of ["webdriver", "devtools"] as PlayerKind[]) {
  describe(`the torture page through a Selenium Grid, player ${player}`, () => {
    let page: BrowserPage;
    let ide: ReturnType<typeof tortureIde>;

    beforeAll(() => {
      page = browserPage({ player, webdriverUrl: grid.url, baseUrl: site.origin, implicitWaitMs: 2_000, uploads: { filesDir: null, projectDir } });
      ide = tortureIde(page, site.origin, casesOf(player));
    });

    afterAll(async () => {
      ide?.stop();
      await page?.close();
    }, 60_000);

    casesOf(player).forEach((tcase, index) => {
      it(`${tcase.name}: every command passes`, async () => {
        expect(await ide.play(index)).toEqual(allPassed(tcase));
      });
    });
  });
}
