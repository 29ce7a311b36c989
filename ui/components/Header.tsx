// The top of the page: whether the page is connected, the project's line (ProjectBar), whether
// the IDE window is open (and the one button that changes it), and who controls the IDE. The
// control banner is what tells the user that a plugin, not they, is driving the IDE.
import type { ConnectionStatus, UserEventMessage } from "../connection.ts";
import type { UiView } from "../protocol.ts";
import { ProjectBar } from "./ProjectBar.tsx";

export function Header({
  status,
  view,
  send,
  saveAs,
}: {
  status: ConnectionStatus;
  view: UiView | null;
  send: (event: UserEventMessage) => void;
  /** The transport's own "Save as…" (the extension's browser dialog), or null: the page asks for a path. */
  saveAs: (() => void) | null;
}) {
  const controller = view?.control.controller ?? null;
  const controllerName = controller !== null ? (view?.plugins.find((p) => p.id === controller)?.name ?? controller) : null;
  return (
    <header class="header">
      <div class="header-row">
        <h1>ide-core</h1>
        <span class={`connection connection-${status}`} data-testid="connection" role="status">
          {status === "connected" ? "connected" : status === "connecting" ? "connecting…" : "disconnected — reconnecting…"}
        </span>
        {view && <ProjectBar view={view} send={send} saveAs={saveAs} />}
        {view && (
          <div class="window-state">
            <span data-testid="window-state" class={`window-${view.window}`}>
              Window {view.window}
            </span>
            {view.window === "open" ? (
              <button type="button" onClick={() => send({ type: "user.closeWindow" })}>
                Close the IDE
              </button>
            ) : (
              <button type="button" class="primary" onClick={() => send({ type: "user.openWindow" })}>
                Open the IDE
              </button>
            )}
          </div>
        )}
      </div>
      {controller !== null && (
        <div class="banner banner-controlled" data-testid="control-banner" role="status">
          Controlled by {controllerName} ({controller})
        </div>
      )}
    </header>
  );
}
