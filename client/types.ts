// The client's own types: what a plugin's code hands the client and gets from it. The
// interface's types (requests, replies, messages) are the core's, re-exported type-only.
import type {
  AlertOptions,
  CommandAnswer,
  CommandChange,
  CommandState,
  CommandToExecute,
  DeclaredStrategy,
  EmitMessage,
  ErrorReply,
  EventMessage,
  ExportMessage,
  ExecuteOptions,
  LocatorStrategy,
  LogType,
  NewCommand,
  PlaybackSelector,
  PluginRequest,
  ProjectInfo,
  Registration,
  Reply,
  SideCommand,
} from "../core/contract.ts";

export type * from "../core/contract.ts";

/**
 * Executes one of this plugin's commands. A throw or rejection is answered
 * `{ error: <its message> }`: the command fails.
 */
export type CommandHandler = (command: CommandToExecute, options: ExecuteOptions) => CommandAnswer | Promise<CommandAnswer>;

/** What `onMessage` handlers get: every message but `execute` (see `onCommand`). */
export type PluginMessage = EventMessage | ExportMessage | EmitMessage;

/**
 * Answers one message: an event, or an `export` or `emit` question. The value (or what its promise resolves with) is the plugin's
 * response; `undefined` means "no opinion" (answered `true` when no handler has one); a throw
 * or rejection is answered `{ error: <its message> }`, which for `saveProject` means "not
 * saved", and for `playbackStarted` stops the run before its first command.
 */
export type MessageHandler = (message: PluginMessage) => unknown;

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
  /**
   * `POST /locator/strategy` (needs `/register` first): declares `NAME=VALUE`, e.g.
   * `{ name: "qa", css: '[data-qa="{value}"]', attribute: "data-qa" }`; then `qa=buy` works
   * wherever a locator does. A name another plugin declared is `StrategyTaken`; declaring one
   * of this plugin's own names again replaces it. The IDE forgets it with the registration
   * (the window closed): declare again after `keepRegistered`'s `onRegistered`.
   */
  declareStrategy(strategy: LocatorStrategy): Promise<Reply<true>>;
  /** `GET /locator/strategy`: every plugin's declared strategies, each with its plugin's id. */
  strategies(): Promise<Reply<{ strategies: DeclaredStrategy[] }>>;
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
