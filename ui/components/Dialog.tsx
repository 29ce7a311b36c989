// The IDE's one open dialog (consent to control, loading over unsaved changes, closing over
// unsaved changes). The buttons say what happens rather than "OK"/"Cancel", and the safe
// answer has the focus so a stray Enter never gives control away or loses changes.
import { useEffect, useRef } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import type { UiView } from "../protocol.ts";

type DialogKind = NonNullable<UiView["dialog"]>["kind"];

export const DIALOG_BUTTONS: Record<DialogKind, { accept: string; decline: string }> = {
  controlConsent: { accept: "Restart and allow access", decline: "Deny access" },
  loadProject: { accept: "Load and lose unsaved changes", decline: "Keep my changes" },
  closeWindow: { accept: "Discard changes and close", decline: "Keep the IDE open" },
};

export function Dialog({ dialog, send }: { dialog: NonNullable<UiView["dialog"]>; send: (event: UserEventMessage) => void }) {
  const decline = useRef<HTMLButtonElement>(null);
  useEffect(() => decline.current?.focus(), [dialog.kind, dialog.requester]);
  const buttons = DIALOG_BUTTONS[dialog.kind];
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
        <p id="dialog-text">{dialog.text}</p>
        <div class="dialog-buttons">
          <button type="button" class="danger" onClick={() => send({ type: "user.accept" })}>
            {buttons.accept}
          </button>
          <button type="button" class="primary" ref={decline} onClick={() => send({ type: "user.decline" })}>
            {buttons.decline}
          </button>
        </div>
      </div>
    </div>
  );
}
