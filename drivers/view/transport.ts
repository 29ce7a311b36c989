// What a UI page needs of a transport to an IDE: the relay's messages in, user events out,
// and where it can, a locator resolved. The transports (socketTransport.ts for the host's
// /ui socket, localTransport.ts for an IDE in the same page) implement it; the page
// (ui/connection.ts) folds what they bring into its state.
import type { ExportReply, ExportRequest, HostMessage, PageInput, UserEventMessage } from "./messages.ts";

export type ConnectionStatus = "connecting" | "connected" | "disconnected";

export interface UiTransportHandlers {
  /** A message of the relay, in order. */
  message(message: HostMessage): void;
  /** The transport's state changed; "disconnected" may be followed by "connected" again. */
  status(status: ConnectionStatus): void;
}

export interface UiConnection {
  /** Hand a user event to the IDE; dropped while the transport is not connected. */
  send(event: UserEventMessage): void;
  /** Stop for good: no more handler calls after this. */
  close(): void;
}

/** How the page reaches an IDE: connected once per page, closed when the page goes. */
export interface UiTransport {
  connect(handlers: UiTransportHandlers): UiConnection;
  /**
   * Where it can: asks the IDE to resolve a locator (GET /playback/location, CONTRACT section
   * 6) and resolves with its wire reply, the xpath or `{ error, errorCode }`; rejects when the
   * question could not be asked. Without it the editor has no "Find".
   */
  resolveLocator?(location: string): Promise<unknown>;
  /**
   * Where it can: "Find target in page" (`outline: true`: the first match outlined for 2 s) or
   * an alternative locator's count: ide.findInPage (CONTRACT section 21); resolves with its
   * answer, `{ count, shown }` or `{ error, errorCode }`; rejects when the question could not be
   * asked. Without it the form shows no counts.
   */
  findInPage?(location: string, outline: boolean): Promise<unknown>;
  /**
   * Where it can: asks the IDE for a test's or a suite's code (ide.exportCode, CONTRACT
   * section 15); rejects when the question could not be asked. Without it there is no Export.
   */
  exportCode?(request: ExportRequest): Promise<ExportReply>;
  /** Where the page under test takes input (the host's): the user's click or keys on its picture. */
  pageInput?(input: PageInput): void;
  /**
   * Where the IDE saves through a dialog of its own (the extension: the browser's save dialog):
   * the page's "Save as…" calls it. Without it, "Save as…" asks for the file's path in the page
   * (the host: `user.saveProject { path }`).
   */
  saveAs?(): void;
}
