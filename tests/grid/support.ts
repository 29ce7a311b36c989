// The Grid tests' fixture: a local Selenium Grid (a hub and a node, two sessions at most), the
// example site, and the host playing through the Grid as `npm start -- --webdriver-url GRID
// --workers N` does, with its pool of browser sessions.
import { startHost } from "../../apps/host/host.ts";
import type { Host } from "../../apps/host/host.ts";
import { startGrid } from "../../drivers/grid/grid.ts";
import type { Grid } from "../../drivers/grid/grid.ts";
import { sessionPool } from "../../drivers/host/sessions.ts";
import type { SessionPool } from "../../drivers/host/sessions.ts";
import { startExampleSite } from "../../drivers/host/site.ts";
import type { ExampleSite } from "../../drivers/host/site.ts";

export interface GridHost {
  grid: Grid;
  site: ExampleSite;
  pool: SessionPool;
  host: Host;
  close(): Promise<void>;
}

export async function gridHost(project: unknown, workers: number): Promise<GridHost> {
  const grid = await startGrid({ maxSessions: 2 });
  const site = await startExampleSite();
  const pool = sessionPool({ sessions: workers, baseUrl: site.url, webdriverUrl: grid.url });
  const host = await startHost({ port: 0, tokenFile: null, project, executor: pool, workers });
  return {
    grid,
    site,
    pool,
    host,
    async close() {
      await host.close();
      await pool.close();
      await site.close();
      await grid.stop();
    },
  };
}
