// The host as npm start and npm run play put it together: the example site, the page under
// test (a pool of browser sessions, started at the first run that needs one, traced unless
// --trace off) and the host with its plugin bridge. One rule for the example site: it is served when the project played is
// the shipped example (examples/shop.side) and no --base-url replaces it.
import { dirname, join, resolve } from "node:path";
import { EXAMPLE_PROJECT_PATH, startExampleSite } from "../../drivers/host/site.ts";
import type { ExampleSite } from "../../drivers/host/site.ts";
import { sessionPool } from "../../drivers/host/sessions.ts";
import type { SessionPool } from "../../drivers/host/sessions.ts";
import type { SideProject } from "../../services/side/index.ts";
import type { BrowserOptions } from "../cli/browser.ts";
import { traceStore } from "../../drivers/host/traceStore.ts";
import type { TraceStore } from "../../drivers/host/traceStore.ts";
import { tracedExecutor } from "../../drivers/host/tracedExecutor.ts";
import { picturePolicy } from "../../services/traces/index.ts";
import { startHost } from "./host.ts";
import { dataFileReader } from "./dataFiles.ts";
import type { Host, HostOptions } from "./host.ts";

/** Whether the example site is served: for the shipped example, unless --base-url names another site. */
export function servesExampleSite(projectFile: string, baseUrl: string | null): boolean {
  return baseUrl === null && resolve(projectFile) === EXAMPLE_PROJECT_PATH;
}

/** Where the host keeps its traces: traces/ beside the token (and the journal). */
export const tracesFolder = (tokenFile: string) => join(dirname(resolve(tokenFile)), "traces");

export interface ComposeOptions extends BrowserOptions {
  /** The file the project was read from: it decides the example site. */
  projectFile: string;
  project: SideProject;
  /** The chromedriver to start when there is no WebDriver URL; default: CHROMEDRIVER_PATH or /usr/bin/chromedriver. */
  chromedriver?: string;
  /** How long a command looks for its element (`npm run play -- --timeout`); default the page's own (5,000 ms). */
  implicitWaitMs?: number;
  /** The variables every test starts with (`npm run play -- --params`). */
  variables?: Readonly<Record<string, string>>;
  /** How many traces the folder keeps while the host runs; default the last KEPT_TRACES (npm run play holds all of its own until its report is written, then prunes: pruneTraces). */
  keepTraces?: number;
  /** What only npm start gives the host (the journal of unsaved changes among it), and npm run play its one token for all its hosts. */
  host?: Pick<HostOptions, "token" | "resolveLocator" | "inspect" | "saveFile" | "journalFile" | "savedAt" | "projectPath" | "recentFile">;
}

export interface ComposedHost {
  host: Host;
  /** The page under test. */
  page: SessionPool;
  /** The example site while it is served, else null. */
  site: ExampleSite | null;
  /** What the tests play against: --base-url, else the example site, else the project's url. */
  baseUrl: string;
  /** Where runs keep their traces (traces/ beside the token), or null with `--trace off`. */
  traces: TraceStore | null;
  /** Stops the host, then the browsers, then the site. */
  close(): Promise<void>;
}

/** Starts the example site (when served), the page under test and the host; on a failure, what started is stopped again. */
export async function composeHost(options: ComposeOptions): Promise<ComposedHost> {
  const site = servesExampleSite(options.projectFile, options.baseUrl) ? await startExampleSite() : null;
  const baseUrl = options.baseUrl ?? site?.url ?? options.project.url;
  const page = sessionPool({
    sessions: options.workers,
    baseUrl,
    webdriverUrl: options.webdriverUrl ?? undefined,
    chromedriverPath: options.chromedriver,
    capabilities: options.capabilities,
    player: options.player,
    implicitWaitMs: options.implicitWaitMs,
    // `type` on a file input reads a relative path from --files DIR, then beside the .side file.
    uploads: { filesDir: options.filesDir, projectDir: dirname(resolve(options.projectFile)) },
  });
  // CONTRACT section 17: traces go to the user's data folder, beside the token (and the journal).
  const traces = options.trace === "off" ? null : traceStore({ root: tracesFolder(options.tokenFile), keep: options.keepTraces, problem: (message) => console.error(message) });
  let host: Host;
  try {
    host = await startHost({
      ...options.host,
      port: options.port,
      project: options.project,
      executor: traces ? tracedExecutor(page, traces, picturePolicy(options.trace)) : page,
      trace: options.trace,
      traces: traces ?? undefined,
      traceReader: traces ?? undefined,
      workers: options.workers,
      heal: options.heal,
      retries: options.retries,
      variables: options.variables,
      tokenFile: options.tokenFile,
      // loadVars reads a relative data file from --files DIR, then beside the .side file, as uploads do.
      readData: dataFileReader({ filesDir: options.filesDir, projectDir: dirname(resolve(options.projectFile)) }),
    });
  } catch (error) {
    await page.close();
    await site?.close();
    throw error;
  }
  return {
    host,
    page,
    site,
    baseUrl,
    traces,
    async close() {
      await host.close();
      await page.close();
      await site?.close();
    },
  };
}
