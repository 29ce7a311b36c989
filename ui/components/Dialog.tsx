// The IDE's one open dialog (consent to control, loading over unsaved changes, closing over
// unsaved changes, restoring unsaved changes kept from before a crash, a plugin's alert). The
// IDE's own dialogs have buttons that say what happens rather than "OK"/"Cancel", and the safe
// answer has the focus so a stray Enter never gives
// control away or loses changes. A plugin's alert ("NAME says...") has the plugin's labels:
// its confirm button answers true, its cancel button (when it gave one), Escape and the
// close of the dialog answer false; the cancel button has the focus when there is one.
import { useEffect, useRef } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import type { UiView } from "../protocol.ts";

type DialogKind = NonNullable<UiView["dialog"]>["kind"];
type OwnDialogKind = Exclude<DialogKind, "pluginAlert">;

export const DIALOG_BUTTONS: Record<OwnDialogKind, { accept: string; decline: string }> = {
  controlConsent: { accept: "Restart and allow access", decline: "Deny access" },
  loadProject: { accept: "Load and lose unsaved changes", decline: "Keep my changes" },
  closeWindow: { accept: "Discard changes and close", decline: "Keep the IDE open" },
  restoreUnsaved: { accept: "Restore my changes", decline: "Drop them" },
};

export function Dialog({ dialog, send }: { dialog: NonNullable<UiView["dialog"]>; send: (event: UserEventMessage) => void }) {
  const decline = useRef<HTMLButtonElement>(null);
  const alert = dialog.kind === "pluginAlert";
  const buttons =
    dialog.kind === "pluginAlert"
      ? { accept: dialog.confirmLabel ?? "OK", decline: dialog.cancelLabel }
      : DIALOG_BUTTONS[dialog.kind];
  const accept = useRef<HTMLButtonElement>(null);
  // Restoring is the safe answer of "Restore unsaved changes"; declining is, of every other dialog.
  const safe = dialog.kind === "restoreUnsaved" ? accept : decline;
  useEffect(() => (safe.current ?? accept.current)?.focus(), [dialog.kind, dialog.requester, dialog.text]);
  return (
    <div class="dialog-backdrop">
      <div
        class={`dialog dialog-${dialog.kind}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby="dialog-title"
        aria-describedby="dialog-text"
        data-testid="dialog"
        data-kind={dialog.kind}
        onKeyDown={(event) => {
          if (event.key === "Escape") send({ type: "user.decline" });
        }}
      >
        <h2 id="dialog-title">{dialog.title}</h2>
        <p id="dialog-text" class="dialog-text">
          {dialog.text}
        </p>
        <div class="dialog-buttons">
          <button
            type="button"
            class={alert || dialog.kind === "restoreUnsaved" ? "primary" : "danger"}
            ref={accept}
            data-testid="dialog-accept"
            onClick={() => send({ type: "user.accept" })}
          >
            {buttons.accept}
          </button>
          {buttons.decline !== null && (
            <button
              type="button"
              class={alert ? undefined : dialog.kind === "restoreUnsaved" ? "danger" : "primary"}
              ref={decline}
              data-testid="dialog-decline"
              onClick={() => send({ type: "user.decline" })}
            >
              {buttons.decline}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
