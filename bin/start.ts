// npm start: the IDE host. createIde() in this process, the UI page, the plugin bridge and,
// on request, the inspector and a live page in Chromium. Everything it needs ships in the
// repository, so a fresh clone runs with `npm install && npm start`.
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { SideProject } from "../services/side/index.ts";
import { fileInspector, skyInspector } from "../drivers/inspect.ts";
import type { HostInspector } from "../drivers/inspect.ts";
import { DEFAULT_PORT, DEFAULT_TOKEN_FILE, startHost } from "../apps/host/host.ts";
import { readProjectFile } from "../apps/host/projectFile.ts";
import { JOURNAL_FILE_NAME } from "../apps/host/journal.ts";
import { stopOnSignals } from "./signals.ts";
import { openLivePage } from "../drivers/host/pages.ts";
import { EXAMPLE_PROJECT_PATH, startExampleSite } from "../drivers/host/site.ts";
import { sessionPool } from "../drivers/host/sessions.ts";
import { parseCapabilities } from "../drivers/host/capabilities.ts";
import type { Capabilities } from "../drivers/host/capabilities.ts";
import { CHROMEDRIVER_MISSING, CHROMEDRIVER_PATH } from "../drivers/host/chromedriver.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const EXAMPLE_PAGE = join(ROOT, "examples", "shop-page.html");

const USAGE = `usage: npm start [-- options]

  --port N            listen on 127.0.0.1:N (default ${DEFAULT_PORT})
  --project FILE      load this .side project (default: examples/shop.side); "Save" writes it back
  --page URL          resolve locators in a live page in headless Chromium when no run has a page (default: the example page, in process)
  --base-url URL      play against this URL instead of the project's url (default for the example: the example site this starts)
  --webdriver-url URL play through this WebDriver endpoint (a Selenium Grid, a chromedriver started by hand) instead of starting chromedriver
  --workers N         play up to N tests of a parallel suite at once, each in its own browser session (default 1)
  --capabilities JSON the WebDriver session's capabilities, a JSON object (default: Chromium headless)
  --chromedriver PATH the chromedriver to start (default: CHROMEDRIVER_PATH or /usr/bin/chromedriver)
  --inspect           stream the actor system to Stately's inspector page (needs access to stately.ai)
  --inspect-log FILE  write every inspection event to FILE as JSON lines (works offline)
  --token-file FILE   where to write the token (default: ${DEFAULT_TOKEN_FILE})
  --help              show this`;

class UsageError extends Error {}

interface StartOptions {
  port: number;
  projectFile: string | null;
  page: string | null;
  baseUrl: string | null;
  webdriverUrl: string | null;
  capabilities: Capabilities | undefined;
  workers: number;
  chromedriver: string;
  inspect: boolean;
  inspectLog: string | null;
  tokenFile: string;
}

function readOptions(argv: string[]): StartOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        port: { type: "string" },
        project: { type: "string" },
        page: { type: "string" },
        "base-url": { type: "string" },
        "webdriver-url": { type: "string" },
        capabilities: { type: "string" },
        workers: { type: "string" },
        chromedriver: { type: "string" },
        inspect: { type: "boolean" },
        "inspect-log": { type: "string" },
        "token-file": { type: "string" },
        help: { type: "boolean" },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a port number from 0 to 65535, not ${JSON.stringify(values.port)}`);
  }
  if (values.page !== undefined && !/^(https?|file):/i.test(values.page)) {
    throw new UsageError(`--page must be an http, https or file URL, not ${JSON.stringify(values.page)}`);
  }
  for (const name of ["base-url", "webdriver-url"] as const) {
    const value = values[name];
    if (value !== undefined && !/^https?:\/\/[^/]/i.test(value)) {
      throw new UsageError(`--${name} must be an http or https URL, not ${JSON.stringify(value)}`);
    }
  }
  let capabilities: Capabilities | undefined;
  try {
    capabilities = values.capabilities === undefined ? undefined : parseCapabilities(values.capabilities);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const workers = values.workers === undefined ? 1 : Number(values.workers);
  if (!Number.isInteger(workers) || workers < 1) {
    throw new UsageError(`--workers must be a whole number of at least 1, not ${JSON.stringify(values.workers)}`);
  }
  return {
    port,
    capabilities,
    workers,
    projectFile: values.project ?? null,
    page: values.page ?? null,
    baseUrl: values["base-url"] ?? null,
    webdriverUrl: values["webdriver-url"] ?? null,
    chromedriver: values.chromedriver ?? CHROMEDRIVER_PATH,
    inspect: values.inspect ?? false,
    inspectLog: values["inspect-log"] ?? null,
    tokenFile: values["token-file"] ?? DEFAULT_TOKEN_FILE,
  };
}

const safeFileName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "project";
const shown = (path: string) => (path.startsWith(ROOT) ? relative(process.cwd(), path) || path : path);

async function main(argv: string[]) {
  const options = readOptions(argv);
  const projectFile = resolve(options.projectFile ?? EXAMPLE_PROJECT_PATH);
  const project = readProjectFile(projectFile);
  // The shipped example is not overwritten: its saves go beside the token.
  const saveTarget = (saved: SideProject) =>
    options.projectFile ? projectFile : join(homedir(), ".ide-core", "saved", `${safeFileName(saved.name)}.side`);

  const inspectors: HostInspector[] = [];
  if (options.inspect) inspectors.push(skyInspector((line) => console.error(line)));
  if (options.inspectLog) inspectors.push(fileInspector(resolve(options.inspectLog)));
  const live = options.page ? await openLivePage(options.page) : null;
  // The shipped example plays against the example site, served here on its own port.
  const site = options.projectFile || options.baseUrl ? null : await startExampleSite();
  const baseUrl = options.baseUrl ?? site?.url ?? project.url;
  // The browser starts at the first run that needs it, not now: the host starts as fast as before.
  const page = sessionPool({
    sessions: options.workers,
    baseUrl,
    webdriverUrl: options.webdriverUrl ?? undefined,
    chromedriverPath: options.chromedriver,
    capabilities: options.capabilities,
  });

  const host = await startHost({
    port: options.port,
    project,
    executor: page,
    workers: options.workers,
    resolveLocator: live?.resolveLocator,
    tokenFile: options.tokenFile,
    // Unsaved changes survive a crash in the data folder, beside the token; offered again if newer than the project's file.
    journalFile: join(dirname(options.tokenFile), JOURNAL_FILE_NAME),
    savedAt: statSync(projectFile).mtimeMs,
    inspect:
      inspectors.length === 0
        ? undefined
        : { next: (event) => inspectors.forEach((i) => i.inspect.next?.(event)) },
    saveFile: (saved) => {
      const target = saveTarget(saved);
      console.log(`Saving "${saved.name}" to ${target}`);
      return target;
    },
  }).catch(async (error: NodeJS.ErrnoException) => {
    await live?.close();
    await site?.close();
    if (error.code === "EADDRINUSE") throw new Error(`port ${options.port} on 127.0.0.1 is in use; stop what uses it or pass --port N`);
    throw error;
  });

  console.log(
    [
      "ide-core is running.",
      `  IDE page       ${host.urls.ui}`,
      `  plugin bridge  ${host.urls.plugins}?id=YOUR_PLUGIN_ID&token=${host.token}`,
      `  token          ${host.token}${host.tokenFile ? ` (also in ${host.tokenFile}, readable only by you)` : ""}`,
      `  project        "${project.name}" from ${shown(projectFile)}`,
      `  journal        ${join(dirname(options.tokenFile), JOURNAL_FILE_NAME)} keeps unsaved changes; after a crash the IDE page offers to restore them`,
      `  plays against  ${baseUrl}${site ? ` (the example site: ${shown(EXAMPLE_PAGE)} at every path)` : options.baseUrl ? " (--base-url)" : " (the project's url)"}`,
      `  page under test ${
        options.webdriverUrl
          ? `a browser from the WebDriver endpoint ${options.webdriverUrl}`
          : `headless Chromium through ${options.chromedriver}`
      }, started at the first run; the IDE page shows it`,
      ...(options.workers > 1 ? [`  workers        ${options.workers} tests of a parallel suite at once, each in a browser session of its own`] : []),
      ...(!options.webdriverUrl && !existsSync(options.chromedriver)
        ? [`  warning        ${CHROMEDRIVER_MISSING(options.chromedriver)}`]
        : []),
      `  locators       ${options.page ? `the live page ${options.page} in headless Chromium` : `the example page ${shown(EXAMPLE_PAGE)}`}, or the page under test while a run has one`,
      ...(options.inspect ? ["  inspector      Stately's live inspector: its address follows once it connects (needs stately.ai)"] : []),
      ...(options.inspectLog ? [`  inspection log ${resolve(options.inspectLog)}`] : []),
      "Try the example plugin in another terminal: npm run example:plugin",
      "Press Ctrl-C to stop.",
    ].join("\n"),
  );

  stopOnSignals(async () => {
    console.log("\nStopping: closing plugin connections and the page.");
    await host.close();
    await page.close();
    await site?.close();
    await live?.close();
    await Promise.all(inspectors.map((i) => i.stop()));
    console.log("Stopped.");
  });
}

main(process.argv.slice(2)).catch((error: Error) => {
  console.error(`npm start: ${error.message}`);
  if (error instanceof UsageError) console.error(`\n${USAGE}`);
  process.exit(1);
});
