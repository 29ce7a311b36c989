// Extensions made for tests and the benchmark, loaded beside the built IDE extension in one
// headless Chromium: a plugin that sends requests and keeps what the IDE sends it, and two
// bare echoes (one answering from its worker, one from an extension page) as baselines.
// Their code is plain JavaScript in strings: it runs inside Chromium, and functions from
// this file would carry tsx's `__name` helper, which the browser does not have.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page, Worker } from "playwright-core";
import { buildExtension } from "../../apps/extension/build.ts";
import { launchWithExtensions } from "../../drivers/host/chromium.ts";
import { newExtensionKey } from "../../drivers/webextension/extensionId.ts";
import { IDE_EXTENSION_ID } from "../../drivers/webextension/identity.ts";
import { WINDOW_PAGE } from "../../drivers/webextension/messages.ts";

export interface MadeExtension {
  id: string;
  dir: string;
}

function writeExtension(name: string, files: Record<string, string>, manifest: Record<string, unknown>): MadeExtension {
  const { key, id } = newExtensionKey();
  const dir = mkdtempSync(join(tmpdir(), `ide-core-${name}-`));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "manifest.json"), JSON.stringify({ manifest_version: 3, name, version: "1.0.0", key, ...manifest }));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return { id, dir };
}

// `plugin` in the worker: send(to, message) gives { reply } or { rejected } (the text of a
// rejection, such as Chromium's "message port closed"); received holds what other extensions
// sent it, answered with `answer` (true unless a test changes it); roundTrips times n
// sequential sends and gives the milliseconds of each. For runs, as Selenium IDE v3's plugins
// do: setExecuteAnswers({ name: answer }) answers `execute` of those commands (NEVER_ANSWER: no
// answer at all, the IDE's limit decides), setVariableOnStart(name, contents) puts a
// variable (PUT /playback/var) while it handles playbackStarted, before it answers, and
// setExportsCode(true) answers export messages (PLUGIN_EXPORT_ANSWER). Without a
// listener (`listens: false`) Chromium rejects every message to it: "Receiving end does not exist".
export const NEVER_ANSWER = "__never_answer__";

/**
 * With setExportsCode(true), the plugin answers v3's `export` of each of its commands with a
 * line of code in the language's comment syntax, and its hooks with no code, as a real
 * plugin's export does. Plain JavaScript, so a test can run the same answer in Node.
 */
export const PLUGIN_EXPORT_ANSWER = `(message) => message.entity === "command"
  ? (/^(python|ruby)/.test(message.language) ? "# " : "// ") + message.command.command + " " + message.command.target + " by the plugin"
  : false`;

const pluginWorker = (listens: boolean) => `
const received = [];
let answer = true;
const executeAnswers = {};
let variableOnStart = null;
let exportsCode = false;
const variableReplies = [];
// Without the listener, Chromium refuses every message to this extension.
if (${listens}) chrome.runtime.onMessageExternal.addListener((message, sender, sendResponse) => {
  received.push({ from: sender.id, message });
  if (message && message.action === "execute" && message.command && Object.hasOwn(executeAnswers, message.command.command)) {
    const reply = executeAnswers[message.command.command];
    if (reply === ${JSON.stringify(NEVER_ANSWER)}) return true;
    sendResponse(reply);
    return false;
  }
  if (exportsCode && message && message.action === "export") {
    sendResponse((${PLUGIN_EXPORT_ANSWER})(message));
    return false;
  }
  if (variableOnStart && message && message.event === "playbackStarted") {
    chrome.runtime
      .sendMessage(sender.id, { uri: "/playback/var", verb: "put", name: variableOnStart.name, contents: variableOnStart.contents })
      .then((reply) => variableReplies.push(reply), (error) => variableReplies.push(String(error)))
      .finally(() => sendResponse(answer));
    return true;
  }
  sendResponse(answer);
  return false;
});
globalThis.plugin = {
  received,
  variableReplies,
  setAnswer(value) { answer = value; },
  setExecuteAnswers(answers) { Object.assign(executeAnswers, answers); },
  setVariableOnStart(name, contents) { variableOnStart = { name, contents }; },
  setExportsCode(on) { exportsCode = on; },
  async send(to, message) {
    try { return { reply: await chrome.runtime.sendMessage(to, message) }; }
    catch (error) { return { rejected: String((error && error.message) || error) }; }
  },
  async roundTrips(to, message, n) {
    const times = [];
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      await chrome.runtime.sendMessage(to, message);
      times.push(performance.now() - started);
    }
    return times;
  },
};
`;

export function makePluginExtension(name = "test-plugin", options: { listens?: boolean } = {}): MadeExtension {
  return writeExtension(name, { "worker.js": pluginWorker(options.listens ?? true) }, { background: { service_worker: "worker.js" } });
}

/** Answers every message with itself, from its service worker: the floor of a round trip. */
export function makeWorkerEcho(): MadeExtension {
  const worker = "chrome.runtime.onMessageExternal.addListener((message, sender, sendResponse) => { sendResponse(message); });\n";
  return writeExtension("echo-worker", { "worker.js": worker }, { background: { service_worker: "worker.js" } });
}

/**
 * Answers every message with itself, from an extension page (open echo.html first), as the IDE
 * window does. With `workerListens`, its worker also listens and leaves every message to the
 * page, as the IDE's worker does while the window is open.
 */
export function makePageEcho(options: { workerListens?: boolean } = {}): MadeExtension {
  const script = "chrome.runtime.onMessageExternal.addListener((message, sender, sendResponse) => { sendResponse(message); });\n";
  const page = '<!doctype html><title>echo</title><script src="echo.js"></script>\n';
  if (!options.workerListens) return writeExtension("echo-page", { "echo.html": page, "echo.js": script }, {});
  const worker = "chrome.runtime.onMessageExternal.addListener(() => false);\n";
  return writeExtension(
    "echo-page-and-worker",
    { "echo.html": page, "echo.js": script, "worker.js": worker },
    { background: { service_worker: "worker.js" } },
  );
}

/** The first service worker `matches` picks, once it runs. */
export async function workerWhere(
  context: BrowserContext,
  matches: (worker: Worker) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<Worker> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = context.serviceWorkers().find(matches);
    if (found) return found;
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`The service worker of ${what} did not start within ${timeoutMs} ms.`);
    await context.waitForEvent("serviceworker", { timeout: left }).catch(() => undefined);
  }
}

/** The worker of the extension `id`, once it runs. */
export function workerOf(context: BrowserContext, id: string): Promise<Worker> {
  return workerWhere(context, (w) => w.url().startsWith(`chrome-extension://${id}/`), `extension ${id}`);
}

export type SendResult = { reply: unknown } | { rejected: string };

/** A plugin's request to `to`, sent from inside the plugin's worker. */
export function sendFrom(plugin: Worker, to: string, message: unknown): Promise<SendResult> {
  return plugin.evaluate(`plugin.send(${JSON.stringify(to)}, ${JSON.stringify(message)})`) as Promise<SendResult>;
}

/**
 * The IDE window, opened by a plugin's open request (`openIDEIfClosed: true`) and drawn: the
 * request must answer `true` and the window show its project's name, or this throws. With
 * `errors`, the window's script errors and console errors are pushed there from its first moment.
 */
export async function openIdeWindow(context: BrowserContext, opener: Worker, errors?: string[]): Promise<Page> {
  const appeared = context.waitForEvent("page", { predicate: (p) => p.url().endsWith(`/${WINDOW_PAGE}`) });
  const opening = sendFrom(opener, IDE_EXTENSION_ID, { openIDEIfClosed: true });
  const window = await appeared;
  if (errors) {
    window.on("pageerror", (error) => errors.push(error.message));
    window.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
  }
  const open = await opening;
  if (!("reply" in open) || open.reply !== true) throw new Error(`The open request answered ${JSON.stringify(open)}.`);
  await window.waitForSelector('[data-testid="project-name"]');
  return window;
}

export function profileDir(): string {
  return mkdtempSync(join(tmpdir(), "ide-core-profile-"));
}

/** The IDE extension built into a fresh temporary folder: gives that folder. */
export async function buildIdeExtension(): Promise<string> {
  return (await buildExtension({ outDir: join(mkdtempSync(join(tmpdir(), "ide-core-ext-")), "extension") })).outDir;
}

export interface LaunchedIde {
  context: BrowserContext;
  /** The plugins' workers, in the order of `plugins`. */
  workers: Worker[];
  /** The browser's first page: the tab under test. */
  tab: Page;
  /** The IDE window, unless `openWindow: false`. */
  window?: Page;
}

/**
 * Chromium with a fresh profile, the built IDE extension (`ideDir`) and `plugins` loaded, once
 * every extension's worker runs. The tab under test goes to `url` when given; then the first
 * plugin opens the IDE window (unless `openWindow: false`), whose errors go to `errors`.
 */
export async function launchIde(
  ideDir: string,
  plugins: MadeExtension[],
  options: { url?: string; openWindow?: boolean; errors?: string[] } = {},
): Promise<LaunchedIde> {
  const context = await launchWithExtensions(profileDir(), [ideDir, ...plugins.map((p) => p.dir)]);
  const workers = await Promise.all(plugins.map((p) => workerOf(context, p.id)));
  await workerOf(context, IDE_EXTENSION_ID);
  const tab = context.pages()[0] ?? (await context.newPage());
  if (options.url) await tab.goto(options.url);
  if (options.openWindow === false) return { context, workers, tab };
  return { context, workers, tab, window: await openIdeWindow(context, workers[0], options.errors) };
}

/**
 * A small site on 127.0.0.1 for runs in the tab under test: a form (/form: type a name, press
 * Go, read "Hello NAME"; a link to /second), a second page with its own field, and a page
 * with a frame (/framed, whose frame /inner has a field, and whose second frame #late the page
 * adds 300 ms after it loads). Gives its origin and a close.
 */
export async function serveTestSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const { createServer } = await import("node:http");
  const pages: Record<string, string> = {
    "/form": `<!doctype html><html><head><meta charset="utf-8"><title>Form page</title></head><body>
<label>Name <input id="name" name="name"></label>
<button id="go" type="button">Go</button>
<p id="result"></p>
<a id="next" href="/second">Next page</a>
<script>
document.getElementById("go").addEventListener("click", () => {
  document.getElementById("result").textContent = "Hello " + document.getElementById("name").value;
});
</script>
</body></html>`,
    "/order": `<!doctype html><html><head><meta charset="utf-8"><title>Order page</title></head><body>
<label>Name <input id="name" name="name"></label>
<label>Size <select id="size"><option>Small</option><option>Medium</option><option>Large</option></select></label>
<button id="go" type="button">Order</button>
<p id="result"></p>
<script>
document.getElementById("go").addEventListener("click", () => {
  const size = document.getElementById("size");
  document.getElementById("result").textContent = document.getElementById("name").value + " orders " + size.options[size.selectedIndex].text;
});
</script>
</body></html>`,
    "/second": `<!doctype html><html><head><meta charset="utf-8"><title>Second page</title></head><body>
<h1 id="heading">Second page</h1>
<label>Search <input id="search"></label>
</body></html>`,
    "/framed": `<!doctype html><html><head><meta charset="utf-8"><title>Framed page</title></head><body>
<p id="outer">Outer</p>
<iframe id="inner" src="/inner" width="300" height="120"></iframe>
<script>
// A second frame the page adds late, by script: selectFrame by its id waits for it.
setTimeout(() => {
  const late = document.createElement("iframe");
  late.id = "late";
  late.src = "/inner?late";
  document.body.append(late);
}, 300);
</script>
</body></html>`,
    "/tricky": `<!doctype html><html><head><meta charset="utf-8"><title>Tricky page</title></head><body>
<div><button id="same" type="button">First "quoted" button</button></div>
<div><button id="same" type="button">Second 'single' button</button></div>
<p><select id="pick"><option>One</option><option>Two</option></select></p>
<p><select id="many" multiple size="3"><option>Red</option><option>Green</option><option>Blue</option></select></p>
<div id="editor" contenteditable="true">Edit me</div>
<div id="host"></div>
<p id="plain">Plain text</p>
<iframe id="frame" src="/inner" width="300" height="80"></iframe>
<script>
document.getElementById("host").attachShadow({ mode: "open" }).innerHTML = '<button id="shadowed" type="button">In the shadow</button>';
</script>
</body></html>`,
    "/inner": `<!doctype html><html><head><meta charset="utf-8"><title>Inner</title></head><body>
<label>Deep <input id="deep"></label>
</body></html>`,
  };
  const server = createServer((req, res) => {
    const page = pages[new URL(req.url ?? "/", "http://x").pathname];
    res.writeHead(page ? 200 : 404, { "Content-Type": "text/html; charset=utf-8" });
    res.end(page ?? "<!doctype html><title>Not found</title><p>Not found</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
