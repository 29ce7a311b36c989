// The typed plugin client (`import { connectPlugin } from "ide-core/client"`): what a plugin
// outside a browser uses to talk to the IDE host over the bridge. It owns the frame ids, so a
// plugin can keep many requests in flight and never pairs a reply with the wrong request; it
// turns a refused upgrade into a sentence a plugin author can act on; and it runs the
// health-then-register loop that every real plugin runs, because the IDE forgets its plugins
// whenever the user closes the window. A plugin's commands are answered through `onCommand`:
// when a run reaches one, the IDE sends `execute` (CONTRACT section 10), the client calls that
// command's handler, and the handler's answer is the command's state.
//
// Its types describe the outside as CONTRACT.md does; the few shared with the core are
// type-only imports, so a plugin loads none of the core's code.
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import type { RawData } from "ws";
import type { ErrorCode as ContractErrorCode } from "../machines/shared.types.ts";
import type { FrameId } from "../drivers/bridge/frames.ts";

// ---------------------------------------------------------------------------------------
// Types of the contract, as a plugin sees them

/** The codes of CONTRACT section 3, and the bridge's own answer to a frame it could not read. */
export type ErrorCode = ContractErrorCode | "InvalidFrame";

/**
 * A failure: `{ error, errorCode }` (CONTRACT section 3); the /record/command routes add the
 * anchor's `status: "error"` and `message` (the same sentence) to NoTestSelected and UnknownCommand.
 */
export interface ErrorReply {
  error: string;
  errorCode: ErrorCode;
  status?: "error";
  message?: string;
}

/** What a route answers: its value, or an error reply. */
export type Reply<T = unknown> = T | ErrorReply;

export function isErrorReply(reply: unknown): reply is ErrorReply {
  return (
    typeof reply === "object" &&
    reply !== null &&
    typeof (reply as ErrorReply).error === "string" &&
    typeof (reply as ErrorReply).errorCode === "string"
  );
}

export type Verb = "get" | "post" | "put" | "delete";

/** A request in either form of CONTRACT section 2: fields flat, or under `payload`. */
export interface PluginRequest {
  uri?: string;
  verb?: Verb | Uppercase<Verb> | (string & {});
  payload?: Record<string, unknown>;
  openIDEIfClosed?: boolean;
  openSeleniumIDEIfClosed?: boolean;
  [field: string]: unknown;
}

export interface PluginCommand {
  id: string;
  name: string;
  type?: "locator" | "region";
  docs?: unknown;
  [field: string]: unknown;
}

/** What `/register` and `/control` take; fields the IDE does not name are kept as sent. */
export interface Registration {
  name: string;
  version: string;
  commands?: PluginCommand[];
  dependencies?: Record<string, string>;
  jest?: unknown;
  exports?: unknown;
  [field: string]: unknown;
}

export type LogType = "error" | "warn" | null;
export type CommandState = "failed" | "fatal" | "passed" | "pending" | "undetermined";

export interface ProjectInfo {
  id: string;
  name: string;
}

/** A test case as in the `.side` file; other fields are kept as they came. */
export interface SideTest {
  id: string;
  name: string;
  commands: Array<{ id: string; command: string; target: string; value: string; [field: string]: unknown }>;
  [field: string]: unknown;
}

/** A command of a test as in the `.side` file (`targets`: [locator, strategy] pairs, when there are). */
export type SideCommand = SideTest["commands"][number];

/** `POST /record/command`: a command to insert into the displayed test. */
export interface NewCommand {
  command: string;
  target?: string;
  value?: string;
  /** Where (0 to the number of commands); default: after the user's selected command, else at the end. */
  index?: number;
  /** Select the inserted command in the IDE. */
  select?: boolean;
}

/** `PUT /record/command`: what to change of a command; the fields left out stay. */
export interface CommandChange {
  command?: string;
  target?: string;
  value?: string;
  targets?: Array<[string, string]>;
}

/** `POST /popup/alert`: the dialog's text and button labels (`cancel` left out: one button). */
export interface AlertOptions {
  confirm?: string;
  cancel?: string;
}

/** A `.side` project as the IDE sends it in `saveProject`; other fields are kept as they came. */
export interface SideProject {
  id: string;
  name: string;
  tests: SideTest[];
  [field: string]: unknown;
}

/** An event the IDE sends a plugin (CONTRACT sections 8 and 9); `onMessage` handlers get these. */
export type EventMessage =
  | { action: "event"; event: "saveProject"; options: { project: SideProject } }
  | { action: "event"; event: "projectLoaded"; options: { projectId: string; projectName: string } }
  | {
      action: "event";
      event: "playbackStarted";
      /** `test` is the test case as in the `.side` file; `suiteName` only when a suite runs. */
      options: { runId: string; testId: string; testName: string; suiteName?: string; projectName: string; test: SideTest };
    }
  | {
      action: "event";
      event: "playbackStopped";
      options: { runId: string; testId: string; testName: string; suiteName?: string; projectName: string };
    }
  | { action: "event"; event: "suitePlaybackStarted"; options: { runId: string; tests: SideTest[] } }
  | { action: "event"; event: "suitePlaybackStopped"; options: { runId: string; suiteName: string; projectName: string } };

/** The command a run reached, with `${...}` in `target` and `value` already replaced. */
export interface CommandToExecute {
  /** The command's name: one of the command ids this plugin registered. */
  command: string;
  target: string;
  value: string;
}

/** Where the command runs (CONTRACT section 10). */
export interface ExecuteOptions {
  runId: string;
  /** The test being played; a test that `run` called, when `isNested`. */
  testId: string;
  /** The test the run started with. */
  originalTestId: string;
  /** The command's id in its test; `commandState` takes it, for a state set later. */
  commandId: string;
  isNested: boolean;
  assertionsDisabled: boolean;
  /** The browser's ids of the page under test; `null` outside a browser. */
  tabId: number | null;
  windowId: number | null;
  frameId: number | null;
}

/** What the IDE sends when a run reaches one of this plugin's commands (CONTRACT section 10). */
export interface ExecuteMessage {
  action: "execute";
  /** Never present: only here so that code reading `message.event` of any outbound message type-checks. */
  event?: never;
  command: CommandToExecute;
  options: ExecuteOptions;
}

/** Everything the IDE sends a plugin. */
export type OutboundMessage = EventMessage | ExecuteMessage;

/**
 * A plugin's answer to `execute`, which sets the command's state (CONTRACT section 10):
 * - `true` (or an object with neither `error` nor `status`): passed;
 * - a string: passed, with the string as the command's message;
 * - `{ status, message? }`: that state (`pending` leaves it to a later `commandState`);
 * - `{ error }`: failed, with `error` as the message; `{ error, status: "fatal" }`: fatal, the run ends;
 * - `undefined` or `null`: the IDE reads it as no answer: fatal, "PLUGIN NAME did not respond".
 *   So a handler that passes must say so (`return true`).
 */
export type CommandAnswer =
  | true
  | string
  | { status: CommandState; message?: string | null }
  | { error: string; status?: "fatal" }
  | undefined
  | null;

/**
 * Executes one of this plugin's commands. A throw or rejection is answered
 * `{ error: <its message> }`: the command fails.
 */
export type CommandHandler = (command: CommandToExecute, options: ExecuteOptions) => CommandAnswer | Promise<CommandAnswer>;

/**
 * Answers one event. The value (or what its promise resolves with) is the plugin's
 * response; `undefined` means "no opinion" (answered `true` when no handler has one); a throw
 * or rejection is answered `{ error: <its message> }`, which for `saveProject` means "not
 * saved", and for `playbackStarted` stops the run before its first command.
 */
export type MessageHandler = (message: EventMessage) => unknown;

/** Which test or suite `startPlayback` runs: at most one field; none runs the displayed test. */
export interface PlaybackSelector {
  testId?: string;
  testName?: string;
  suiteId?: string;
  suiteName?: string;
}

export interface KeepRegisteredOptions {
  /** How long to wait after one check before the next. Default 1000. */
  intervalMs?: number;
  /** The IDE did not know the plugin (`/health` was false) and `/register` succeeded. */
  onRegistered?: () => void;
  /** `/health` or `/register` answered an error (the window is closed, a command conflict, ...). */
  onRefused?: (reply: ErrorReply, route: "/health" | "/register") => void;
  /** A check could not be made (the connection closed); the loop has stopped. */
  onFailed?: (error: Error) => void;
}

export interface CloseInfo {
  code: number;
  reason: string;
  /** True when this side called `disconnect()`. */
  byPlugin: boolean;
}

export interface PluginClient {
  /** The plugin id this connection speaks for. */
  readonly id: string;
  /** The bridge URL, without the token. */
  readonly url: string;
  readonly connected: boolean;
  /**
   * Sends any request and resolves with its reply, an error reply included. Rejects only
   * when the reply cannot come: the connection closed, or the message is not JSON.
   */
  request<T = unknown>(message: PluginRequest): Promise<Reply<T>>;
  health(): Promise<Reply<boolean>>;
  register(registration: Registration): Promise<Reply<true>>;
  log(message: string, type?: LogType): Promise<Reply<true>>;
  getProject(): Promise<Reply<ProjectInfo>>;
  /** `true` loaded; `false` the user kept their unsaved changes. */
  loadProject(project: unknown): Promise<Reply<boolean>>;
  /** `true` the user allowed control (or this plugin has it); `false` declined. */
  control(registration: Registration): Promise<Reply<boolean>>;
  /** `POST /close`: `true` the window closed; `false` the user kept it open. */
  closeIde(): Promise<Reply<boolean>>;
  /** `GET /playback/location`: the xpath of the element the locator finds. */
  location(locator: string): Promise<Reply<string>>;
  commandState(commandId: string, state: CommandState, message?: string | null): Promise<Reply<true>>;
  playbackLog(message: string, type?: LogType): Promise<Reply<true>>;
  /**
   * `PUT /playback/var`: sets the variable `name` of the run that is starting or running to
   * `value` (sent as JSON text). Send it while handling `playbackStarted` (and before
   * answering it) so the first command sees it. Rejects with a TypeError for a value JSON
   * cannot carry (undefined, a function, a BigInt).
   */
  setVariable(name: string, value: unknown): Promise<Reply<true>>;
  /** `POST /playback/start`: runs a test or suite (needs control); `{ runId }` once it started. */
  startPlayback(selector?: PlaybackSelector): Promise<Reply<{ runId: string }>>;
  /** `POST /playback/stop`: ends the run (needs control); `true` once it is over. */
  stopPlayback(): Promise<Reply<true>>;
  /**
   * `GET /record/command`: the commands of the test the user is looking at (controlled-only).
   * NoTestSelected when the project has no test.
   */
  getDisplayedTest(): Promise<Reply<{ commands: SideCommand[] }>>;
  /** `POST /record/command`: inserts a command into the displayed test; Busy while a run plays it. */
  addCommand(command: NewCommand): Promise<Reply<true>>;
  /** `PUT /record/command`: changes the command `id` of the displayed test; UnknownCommand for an id it lacks. */
  changeCommand(id: string, change: CommandChange): Promise<Reply<true>>;
  /** `DELETE /record/command`: removes the command `id` from the displayed test. */
  deleteCommand(id: string): Promise<Reply<true>>;
  /** `GET /record/tab`: the browser tab under test; NoPage outside the browser extension. */
  tabUnderTest(): Promise<Reply<{ id: number }>>;
  /**
   * `POST /popup/alert`: asks the user in a dialog titled "NAME says..." (the message is shown
   * as text); `true` confirmed, `false` not. Busy while another dialog is open.
   */
  alert(message: string, options?: AlertOptions): Promise<Reply<boolean>>;
  /** `GET /export/location`: the locator as Selenium's `By` expression, e.g. `By.id("user")`. */
  exportLocation(locator: string): Promise<Reply<string>>;
  /** The open request: opens a closed window; with a request, then handles it as usual. */
  open(): Promise<Reply<true>>;
  open<T = unknown>(request: PluginRequest): Promise<Reply<T>>;
  /** Subscribes to the IDE's events (not `execute`: see `onCommand`); returns the unsubscribe. */
  onMessage(handler: MessageHandler): () => void;
  /**
   * Handles `execute` for the command `name` (a command id this plugin registers); returns
   * the unsubscribe. One handler per name: a second one for the same name throws. An
   * `execute` for a command with no handler is answered `{ error: "... has no handler for NAME" }`,
   * so the command fails.
   */
  onCommand(name: string, handler: CommandHandler): () => void;
  /** Called once when the connection closes, whoever closed it; returns the unsubscribe. */
  onClose(listener: (info: CloseInfo) => void): () => void;
  /**
   * Runs the loop real plugins run: `GET /health` now and every interval after; when the IDE
   * answers `false` (it forgot the plugin, e.g. the window was closed and reopened),
   * `POST /register`. Returns the function that stops it.
   */
  keepRegistered(registration: Registration, options?: KeepRegisteredOptions): () => void;
  /** Closes the connection; requests still waiting reject. Stops every loop. */
  disconnect(): Promise<void>;
}

export interface ConnectOptions {
  /** The bridge, e.g. ws://127.0.0.1:7357/plugins (what npm start printed). */
  url: string;
  /** The plugin id: the sender id of every request on this connection (1–200 characters). */
  id: string;
  /** The host's token. Default: the `token` in `url`, else the contents of `tokenFile`. */
  token?: string;
  /** Where the host wrote its token. Default ~/.ide-core/token. */
  tokenFile?: string;
  /** How long the host may take to accept the connection. Default 10,000 ms. */
  handshakeTimeoutMs?: number;
}

/** The host refused the connection at the upgrade; `status` is its HTTP status. */
export class ConnectionRefusedError extends Error {
  override readonly name = "ConnectionRefusedError";
  constructor(
    message: string,
    readonly status: number,
    /** The host's own words, from the response body. */
    readonly hostReason: string,
  ) {
    super(message);
  }
}

export const defaultTokenFile = (): string => join(homedir(), ".ide-core", "token");

// ---------------------------------------------------------------------------------------
// Connecting

const MAX_ID_LENGTH = 200;

function checkOptions(options: ConnectOptions): { url: URL; id: string } {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("connectPlugin needs an options object: { url, id }.");
  }
  const { id } = options;
  if (typeof id !== "string" || id.length === 0) {
    throw new TypeError("connectPlugin needs `id`, the plugin id (a non-empty string), e.g. \"my-plugin\".");
  }
  if (id.length > MAX_ID_LENGTH) {
    throw new TypeError(`The plugin id is ${id.length} characters long; it may have at most ${MAX_ID_LENGTH}.`);
  }
  if (typeof options.url !== "string" || options.url.length === 0) {
    throw new TypeError("connectPlugin needs `url`, the bridge's address, e.g. ws://127.0.0.1:7357/plugins.");
  }
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new TypeError(`${JSON.stringify(options.url)} is not a URL; the bridge's address looks like ws://127.0.0.1:7357/plugins.`);
  }
  if (url.protocol !== "ws:" && url.protocol !== "wss:") {
    throw new TypeError(
      `${JSON.stringify(options.url)} is not a WebSocket URL (it must start with ws://), e.g. ws://127.0.0.1:7357/plugins.`,
    );
  }
  if (options.token !== undefined && (typeof options.token !== "string" || options.token.length === 0)) {
    throw new TypeError("`token`, when given, must be a non-empty string.");
  }
  return { url, id };
}

async function readToken(tokenFile: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(tokenFile, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new Error(
        `No token for the IDE host: none was given and the token file ${tokenFile} does not exist. ` +
          "Start the host with npm start first (it writes its token there), or pass the token it printed.",
      );
    }
    throw new Error(`Could not read the IDE host's token file ${tokenFile}: ${(error as Error).message}`);
  }
  const token = text.trim();
  if (token.length === 0) {
    throw new Error(`The token file ${tokenFile} is empty. Start the host with npm start first; it writes its token there.`);
  }
  return token;
}

function refusalMessage(status: number, id: string, url: string, hostReason: string): string {
  const because = hostReason ? ` The host says: ${hostReason}` : "";
  switch (status) {
    case 400:
      return `The IDE host refused the plugin id ${JSON.stringify(id)} as unusable (HTTP 400).${because}`;
    case 401:
      return (
        `The IDE host refused the connection: the token is wrong or missing (HTTP 401). ` +
        `Use the token npm start printed, or let the client read it from the host's token file.${because}`
      );
    case 403:
      return `The IDE host refused the connection from here (HTTP 403).${because}`;
    case 404:
      return `Nothing takes plugins at ${url} (HTTP 404); the bridge is at ws://127.0.0.1:PORT/plugins.${because}`;
    case 409:
      return (
        `The plugin id ${JSON.stringify(id)} is already connected to the IDE host (HTTP 409); ` +
        `a plugin id belongs to one connection at a time. Close the other connection or use another id.${because}`
      );
    default:
      return `The IDE host refused the connection with HTTP ${status}.${because}`;
  }
}

/** The host's words from a refusal's body: plain text, or a JSON object's error/reason. */
function reasonFromBody(body: string): string {
  const text = body.trim();
  try {
    const data = JSON.parse(text) as Record<string, unknown>;
    for (const key of ["error", "reason", "message"]) {
      if (typeof data?.[key] === "string") return (data[key] as string).slice(0, 500);
    }
  } catch {
    // not JSON: the text is the reason
  }
  return text.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim().slice(0, 500);
}

const REFUSAL_BODY_BYTES = 4096;

/** Opens the socket; settles once: open, refused at the upgrade, or unreachable. */
function opened(ws: WebSocket, id: string, shownUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      ws.off("open", onOpen);
      if (error) reject(error);
      else resolve();
    };
    const onOpen = () => settle();
    ws.on("open", onOpen);
    ws.on("unexpected-response", (_req, res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      let read = false;
      const done = () => {
        if (read) return;
        read = true;
        const hostReason = reasonFromBody(Buffer.concat(chunks).toString("utf8"));
        settle(new ConnectionRefusedError(refusalMessage(status, id, shownUrl, hostReason), status, hostReason));
        ws.terminate();
      };
      res.on("data", (chunk: Buffer) => {
        if (size < REFUSAL_BODY_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      res.on("end", done);
      res.on("error", done);
      res.on("close", done);
    });
    ws.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED") {
        settle(
          Object.assign(
            new Error(`Could not reach the IDE host at ${shownUrl}: nothing is listening there. Start it with npm start.`, {
              cause: error,
            }),
            { code: error.code },
          ),
        );
      } else {
        settle(new Error(`Could not connect to the IDE host at ${shownUrl}: ${error.message}`, { cause: error }));
      }
    });
    ws.on("close", (code) => settle(new Error(`The IDE host closed the connection (code ${code}) before it was open.`)));
  });
}

/** Connects a plugin to the IDE host's bridge. Rejects with a sentence when it cannot. */
export async function connectPlugin(options: ConnectOptions): Promise<PluginClient> {
  const { url, id } = checkOptions(options);
  const token = options.token ?? url.searchParams.get("token") ?? (await readToken(options.tokenFile ?? defaultTokenFile()));
  url.searchParams.delete("token");
  url.searchParams.delete("id");
  const shownUrl = url.toString();
  url.searchParams.set("id", id);
  url.searchParams.set("token", token);
  const ws = new WebSocket(url, { handshakeTimeout: options.handshakeTimeoutMs ?? 10_000 });
  // Listening before the socket opens, so no frame that arrives with the open is missed.
  const client = new BridgeClient(ws, id, shownUrl);
  try {
    await opened(ws, id, shownUrl);
  } catch (error) {
    ws.terminate();
    throw error;
  }
  return client;
}

// ---------------------------------------------------------------------------------------
// The connection

interface Pending {
  resolve(reply: unknown): void;
  reject(error: Error): void;
  label: string;
}

/** The bridge's frames (drivers/bridge/frames.ts), with the outbound messages typed per event. */
type HostFrame =
  | { type: "reply"; id: FrameId; reply: unknown }
  | { type: "event"; id: string; message: OutboundMessage }
  | { type: "error"; id: FrameId | null; error: string; errorCode: "InvalidFrame" };

/** "GET /health" for a readable request, for error messages. */
function describeRequest(message: PluginRequest, frameId: number): string {
  const uri = typeof message?.uri === "string" ? message.uri : null;
  const verb = typeof message?.verb === "string" ? `${message.verb.toUpperCase()} ` : "";
  return uri === null ? `request ${frameId}` : `request ${frameId} (${verb}${uri})`;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

class BridgeClient implements PluginClient {
  private nextFrameId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly handlers: MessageHandler[] = [];
  private readonly commandHandlers = new Map<string, CommandHandler>();
  private readonly closeListeners = new Set<(info: CloseInfo) => void>();
  /** Each loop's stop; given an error, the loop reports it as the reason it stopped. */
  private readonly loops = new Set<(failure?: Error) => void>();
  private closing = false;
  private closeInfo: CloseInfo | null = null;
  private closed: Promise<void>;

  constructor(
    private readonly ws: WebSocket,
    readonly id: string,
    readonly url: string,
  ) {
    ws.on("message", (data, isBinary) => {
      if (!isBinary) this.receive(data);
    });
    // After the open, errors end in a close, which is where they are reported.
    ws.on("error", () => {});
    this.closed = new Promise((resolve) => {
      ws.once("close", (code: number, reason: Buffer) => {
        this.closeInfo = { code, reason: reason.toString("utf8"), byPlugin: this.closing };
        this.failPending(
          (label) => `The connection to the IDE host closed (code ${code}) before it replied to ${label}.`,
        );
        this.stopLoops(
          this.closing ? undefined : new Error(`The connection to the IDE host closed (code ${code}); the registration loop stopped.`),
        );
        for (const listener of [...this.closeListeners]) listener(this.closeInfo);
        this.closeListeners.clear();
        resolve();
      });
    });
  }

  get connected(): boolean {
    return this.ws.readyState === WebSocket.OPEN && !this.closing;
  }

  request<T = unknown>(message: PluginRequest): Promise<Reply<T>> {
    const frameId = this.nextFrameId++;
    const label = describeRequest(message, frameId);
    if (!this.connected) {
      return Promise.reject(new Error(`Cannot send ${label}: the connection to the IDE host is closed.`));
    }
    let text: string;
    try {
      text = JSON.stringify({ type: "request", id: frameId, message });
    } catch (error) {
      return Promise.reject(new TypeError(`Cannot send ${label}: it is not JSON (${errorText(error)}).`));
    }
    return new Promise<Reply<T>>((resolve, reject) => {
      this.pending.set(frameId, { resolve: resolve as (reply: unknown) => void, reject, label });
      this.ws.send(text, (error) => {
        if (error && this.pending.delete(frameId)) {
          reject(new Error(`Could not send ${label} to the IDE host: ${error.message}`));
        }
      });
    });
  }

  health() {
    return this.request<boolean>({ uri: "/health", verb: "get" });
  }

  register(registration: Registration) {
    return this.request<true>({ uri: "/register", verb: "post", payload: { ...registration } });
  }

  log(message: string, type: LogType = null) {
    return this.request<true>({ uri: "/log", verb: "post", payload: { type, message } });
  }

  getProject() {
    return this.request<ProjectInfo>({ uri: "/project", verb: "get" });
  }

  loadProject(project: unknown) {
    return this.request<boolean>({ uri: "/project", verb: "post", payload: { project } });
  }

  control(registration: Registration) {
    return this.request<boolean>({ uri: "/control", verb: "post", payload: { ...registration } });
  }

  closeIde() {
    return this.request<boolean>({ uri: "/close", verb: "post" });
  }

  location(locator: string) {
    return this.request<string>({ uri: "/playback/location", verb: "get", payload: { location: locator } });
  }

  commandState(commandId: string, state: CommandState, message?: string | null) {
    const payload: Record<string, unknown> = { commandId, state };
    if (message !== undefined) payload.message = message;
    return this.request<true>({ uri: "/playback/command", verb: "post", payload });
  }

  playbackLog(message: string, type: LogType = null) {
    return this.request<true>({ uri: "/playback/log", verb: "post", payload: { type, message } });
  }

  setVariable(name: string, value: unknown) {
    let contents: string | undefined;
    try {
      contents = JSON.stringify(value);
    } catch (error) {
      return Promise.reject(new TypeError(`Cannot set the variable ${JSON.stringify(name)}: its value is not JSON (${errorText(error)}).`));
    }
    if (contents === undefined) {
      return Promise.reject(new TypeError(`Cannot set the variable ${JSON.stringify(name)}: ${typeof value} is not a value JSON can carry.`));
    }
    return this.request<true>({ uri: "/playback/var", verb: "put", payload: { name, contents } });
  }

  startPlayback(selector: PlaybackSelector = {}) {
    return this.request<{ runId: string }>({ uri: "/playback/start", verb: "post", payload: { ...selector } });
  }

  stopPlayback() {
    return this.request<true>({ uri: "/playback/stop", verb: "post" });
  }

  getDisplayedTest() {
    return this.request<{ commands: SideCommand[] }>({ uri: "/record/command", verb: "get" });
  }

  addCommand(command: NewCommand) {
    return this.request<true>({ uri: "/record/command", verb: "post", payload: { ...command } });
  }

  changeCommand(id: string, change: CommandChange) {
    return this.request<true>({ uri: "/record/command", verb: "put", payload: { ...change, id } });
  }

  deleteCommand(id: string) {
    return this.request<true>({ uri: "/record/command", verb: "delete", payload: { id } });
  }

  tabUnderTest() {
    return this.request<{ id: number }>({ uri: "/record/tab", verb: "get" });
  }

  alert(message: string, options: AlertOptions = {}) {
    return this.request<boolean>({ uri: "/popup/alert", verb: "post", payload: { ...options, message } });
  }

  exportLocation(locator: string) {
    return this.request<string>({ uri: "/export/location", verb: "get", payload: { location: locator } });
  }

  open<T = unknown>(request?: PluginRequest): Promise<Reply<T>> {
    return this.request<T>({ ...request, openIDEIfClosed: true });
  }

  onMessage(handler: MessageHandler): () => void {
    if (typeof handler !== "function") throw new TypeError("onMessage needs a function: (message) => response.");
    this.handlers.push(handler);
    return () => {
      const index = this.handlers.indexOf(handler);
      if (index >= 0) this.handlers.splice(index, 1);
    };
  }

  onCommand(name: string, handler: CommandHandler): () => void {
    if (typeof name !== "string" || name.length === 0) {
      throw new TypeError("onCommand needs the command's name (a command id the plugin registers), e.g. \"myCheck\".");
    }
    if (typeof handler !== "function") throw new TypeError("onCommand needs a function: (command, options) => answer.");
    if (this.commandHandlers.has(name)) {
      throw new Error(`The command ${name} has a handler already; call the unsubscribe that onCommand returned before giving it another.`);
    }
    this.commandHandlers.set(name, handler);
    return () => {
      if (this.commandHandlers.get(name) === handler) this.commandHandlers.delete(name);
    };
  }

  onClose(listener: (info: CloseInfo) => void): () => void {
    if (this.closeInfo) {
      listener(this.closeInfo);
      return () => {};
    }
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  keepRegistered(registration: Registration, options: KeepRegisteredOptions = {}): () => void {
    const intervalMs = options.intervalMs ?? 1000;
    if (typeof intervalMs !== "number" || !Number.isFinite(intervalMs) || intervalMs <= 0) {
      throw new TypeError(`keepRegistered: intervalMs must be a number of milliseconds above 0, not ${String(intervalMs)}.`);
    }
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const end = (failure?: Error) => {
      if (stopped) return;
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      this.loops.delete(end);
      if (failure) options.onFailed?.(failure);
    };
    const stop = () => end();
    const check = async () => {
      timer = undefined;
      try {
        const health = await this.health();
        if (stopped) return;
        if (health === false) {
          const reply = await this.register(registration);
          if (stopped) return;
          if (isErrorReply(reply)) options.onRefused?.(reply, "/register");
          else options.onRegistered?.();
        } else if (isErrorReply(health)) {
          options.onRefused?.(health, "/health");
        }
      } catch (error) {
        end(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (stopped) return;
      // The next check is planned only after this one is answered: never two at once.
      timer = setTimeout(check, intervalMs);
      timer.unref?.();
    };
    this.loops.add(end);
    void check();
    return stop;
  }

  async disconnect(): Promise<void> {
    this.stopLoops();
    if (this.ws.readyState === WebSocket.CLOSED) return;
    if (!this.closing) {
      this.closing = true;
      this.failPending((label) => `The plugin disconnected before the IDE host replied to ${label}.`);
      this.ws.close(1000, "the plugin disconnected");
    }
    // A host that does not finish the closing handshake is not waited for long.
    const fallback = setTimeout(() => this.ws.terminate(), 2000);
    fallback.unref?.();
    await this.closed;
    clearTimeout(fallback);
  }

  private stopLoops(failure?: Error) {
    for (const end of [...this.loops]) end(failure);
  }

  private failPending(why: (label: string) => string) {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const { reject, label } of waiting) reject(new Error(why(label)));
  }

  private receive(data: RawData) {
    let frame: HostFrame;
    try {
      frame = JSON.parse(data.toString()) as HostFrame;
    } catch {
      return; // the host only sends JSON; anything else is not ours to answer
    }
    if (typeof frame !== "object" || frame === null) return;
    switch (frame.type) {
      case "reply":
        this.settle(frame.id, frame.reply);
        break;
      case "error":
        // The bridge could not read one of our frames: that request's reply is the error.
        if (frame.id !== null) this.settle(frame.id, { error: frame.error, errorCode: frame.errorCode });
        break;
      case "event":
        void this.answer(frame.id, frame.message);
        break;
    }
  }

  private settle(frameId: string | number, reply: unknown) {
    if (typeof frameId !== "number") return;
    const waiting = this.pending.get(frameId);
    if (!waiting) return;
    this.pending.delete(frameId);
    waiting.resolve(reply);
  }

  private async answer(eventId: string, message: OutboundMessage) {
    const response =
      typeof message === "object" && message !== null && message.action === "execute"
        ? await this.execute(message)
        : await this.answerEvent(message as EventMessage);
    if (!this.connected) return;
    // `undefined` travels as a response frame without `response` (JSON.stringify leaves the
    // key out); the bridge reads that as the answer undefined (drivers/bridge/frames.ts).
    let text: string;
    try {
      text = JSON.stringify({ type: "response", id: eventId, response });
    } catch (error) {
      text = JSON.stringify({ type: "response", id: eventId, response: { error: `The plugin's answer is not JSON: ${errorText(error)}` } });
    }
    this.ws.send(text);
  }

  private async answerEvent(message: EventMessage): Promise<unknown> {
    try {
      const answers = await Promise.all(this.handlers.map(async (handler) => handler(message)));
      const given = answers.find((answer) => answer !== undefined);
      return given !== undefined ? given : true;
    } catch (error) {
      return { error: errorText(error) };
    }
  }

  /** The command's handler's answer, as it is: `undefined` stays undefined (the IDE: "did not respond"). */
  private async execute(message: ExecuteMessage): Promise<unknown> {
    const name = message.command?.command;
    if (typeof name !== "string") return { error: `The plugin ${this.id} got an execute message without a command name.` };
    const handler = this.commandHandlers.get(name);
    if (!handler) return { error: `The plugin ${this.id} has no handler for ${name}.` };
    const { command, target, value } = message.command;
    try {
      return await handler({ command, target, value }, message.options);
    } catch (error) {
      return { error: errorText(error) };
    }
  }
}
