// `npm start`: the IDE host as a program. createIde() in this process with the UI page and the
// plugin bridge (composeHost), on request the inspector and a live page in Chromium, the lines
// that say where everything is, and a clean stop on Ctrl-C.
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fileInspector, skyInspector } from "../../drivers/inspect.ts";
import type { HostInspector } from "../../drivers/inspect.ts";
import { openLivePage } from "../../drivers/host/pages.ts";
import { EXAMPLE_PROJECT_PATH } from "../../drivers/host/site.ts";
import { CHROMEDRIVER_MISSING } from "../../drivers/host/chromedriver.ts";
import type { SideProject } from "../../services/side/index.ts";
import { readProjectFile } from "../cli/project.ts";
import { stopOnSignals } from "../cli/signals.ts";
import type { StartOptions } from "./args.ts";
import { composeHost } from "./compose.ts";
import { JOURNAL_FILE_NAME } from "./journal.ts";
import { RECENT_FILE_NAME } from "./recent.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const EXAMPLE_PAGE = join(ROOT, "examples", "shop-page.html");

const safeFileName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "project";
const shown = (path: string) => (path.startsWith(ROOT) ? relative(process.cwd(), path) || path : path);

/** Starts the host as the options say, prints where everything is, and stops it on Ctrl-C. */
export async function startIde(options: StartOptions): Promise<void> {
  const projectFile = resolve(options.projectFile ?? EXAMPLE_PROJECT_PATH);
  const project = readProjectFile(projectFile);
  // A plain Save writes the --project file back; the shipped example is not overwritten: until
  // a Save as names a file, its saves go to the host's folder.
  const saveTarget = (saved: SideProject) => join(homedir(), ".ide-core", "saved", `${safeFileName(saved.name)}.side`);
  // The last files saved or opened, beside the token (and the journal), for the IDE page's recent list.
  const recentFile = join(dirname(options.tokenFile), RECENT_FILE_NAME);

  const inspectors: HostInspector[] = [];
  if (options.inspect) inspectors.push(skyInspector((line) => console.error(line)));
  if (options.inspectLog) inspectors.push(fileInspector(resolve(options.inspectLog)));
  const live = options.page ? await openLivePage(options.page) : null;
  // Unsaved changes survive a crash in the data folder, beside the token; offered again if newer than the project's file.
  const journalFile = join(dirname(options.tokenFile), JOURNAL_FILE_NAME);
  // The browser starts at the first run that needs it, not now: the host starts as fast as before.
  const composed = await composeHost({
    ...options,
    projectFile,
    project,
    host: {
      resolveLocator: live?.resolveLocator,
      journalFile,
      savedAt: statSync(projectFile).mtimeMs,
      inspect: inspectors.length === 0 ? undefined : { next: (event) => inspectors.forEach((i) => i.inspect.next?.(event)) },
      saveFile: (saved) => {
        const target = saveTarget(saved);
        console.log(`Saving "${saved.name}" to ${target}`);
        return target;
      },
      projectPath: options.projectFile ? projectFile : null,
      recentFile,
    },
  }).catch(async (error: NodeJS.ErrnoException) => {
    await live?.close();
    if (error.code === "EADDRINUSE") throw new Error(`port ${options.port} on 127.0.0.1 is in use; stop what uses it or pass --port N`);
    throw error;
  });
  const { host, site, baseUrl } = composed;

  console.log(
    [
      "ide-core is running.",
      `  IDE page       ${host.urls.ui}`,
      `  plugin bridge  ${host.urls.plugins}?id=YOUR_PLUGIN_ID&token=${host.token}`,
      `  token          ${host.token}${host.tokenFile ? ` (also in ${host.tokenFile}, readable only by you)` : ""}`,
      `  project        "${project.name}" from ${shown(projectFile)}`,
      `  journal        ${journalFile} keeps unsaved changes; after a crash the IDE page offers to restore them`,
      `  saves          ${options.projectFile ? `Save writes ${shown(projectFile)}` : `Save writes ${join(homedir(), ".ide-core", "saved")}/NAME.side`} until Save as names a file; recent files in ${recentFile}`,
      `  plays against  ${baseUrl}${site ? ` (the example site: ${shown(EXAMPLE_PAGE)} at every path)` : options.baseUrl ? " (--base-url)" : " (the project's url)"}`,
      `  page under test ${
        options.webdriverUrl
          ? `a browser from the WebDriver endpoint ${options.webdriverUrl}`
          : `headless Chromium through ${options.chromedriver}`
      }, started at the first run; the IDE page shows it`,
      `  plays with     ${
        options.player === "webdriver"
          ? "Selenium's WebDriverExecutor, every command (--executor webdriver)"
          : "the one player: page commands in the page, trusted input over DevTools (--executor webdriver: Selenium's WebDriverExecutor)"
      }${options.heal ? "" : "; a healed command fails (--no-heal)"}`,
      `  uploads        type on a file input reads a relative path ${options.filesDir ? `from ${options.filesDir} (--files), then ` : ""}beside ${shown(projectFile)}`,
      ...(options.workers > 1 ? [`  workers        ${options.workers} tests of a parallel suite at once, each in a browser session of its own`] : []),
      ...(options.retries > 0 ? [`  retries        a failed test plays again at once, up to ${options.retries} more time${options.retries === 1 ? "" : "s"} (--retries)`] : []),
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
    await composed.close();
    await live?.close();
    await Promise.all(inspectors.map((i) => i.stop()));
    console.log("Stopped.");
  });
}
