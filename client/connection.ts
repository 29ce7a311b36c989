// The connection: frame ids of its own, so many requests can be in flight and no reply is
// paired with the wrong request; the IDE's events and `execute` handed to the plugin's
// handlers; and the health-then-register loop every real plugin runs.
import WebSocket from "ws";
import type { RawData } from "ws";
import type { FrameId } from "../drivers/bridge/frames.ts";
import { isErrorReply } from "./replies.ts";
import type {
  AlertOptions,
  CloseInfo,
  CommandAnswer,
  CommandChange,
  CommandHandler,
  CommandState,
  DeclaredStrategy,
  ErrorReply,
  ExecuteMessage,
  KeepRegisteredOptions,
  LocatorStrategy,
  LogType,
  MessageHandler,
  NewCommand,
  OutboundMessage,
  PlaybackSelector,
  PluginMessage,
  PluginClient,
  PluginRequest,
  ProjectInfo,
  Registration,
  Reply,
  SideCommand,
} from "./types.ts";

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

export class BridgeClient implements PluginClient {
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

  declareStrategy(strategy: LocatorStrategy) {
    return this.request<true>({ uri: "/locator/strategy", verb: "post", payload: { ...strategy } });
  }

  strategies() {
    return this.request<{ strategies: DeclaredStrategy[] }>({ uri: "/locator/strategy", verb: "get" });
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
        : await this.answerEvent(message);
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

  private async answerEvent(message: PluginMessage): Promise<unknown> {
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
