// The recorder as the host puts it into the page under test (drivers/host/recording.ts): in an
// isolated world of every document and frame, reporting through a DevTools binding that only
// that world has, so the page's own scripts can neither see nor call it. The project's
// recording settings come as HOST_SETTINGS (report.ts) in the same world (the host sets them there before a
// recording starts, and for every new document); the recorder reads them at each command.
// The host arms and disarms a pick (pick.ts) by calling HOST_PICK in that world; what the pick
// tells goes through the same binding.
import { framePath, attachRecorder } from "./recorder.ts";
import { armPick } from "./pick.ts";
import { HOST_PICK, HOST_SETTINGS as SETTINGS, readRecorderSettings } from "./report.ts";
import type { HostPick } from "./report.ts";

declare const __ideCoreRecorded: ((payload: string) => void) | undefined;

const scope = globalThis as typeof globalThis & { __ideCoreRecorderAttached?: boolean; [SETTINGS]?: unknown; [HOST_PICK]?: HostPick };

if (!scope.__ideCoreRecorderAttached && typeof __ideCoreRecorded === "function") {
  scope.__ideCoreRecorderAttached = true;
  const report = __ideCoreRecorded;
  const settings = () => readRecorderSettings(scope[SETTINGS]);
  attachRecorder(window, (action) => report(JSON.stringify(action)), settings);
  let disarm: (() => void) | null = null;
  scope[HOST_PICK] = {
    arm() {
      disarm?.();
      disarm = armPick(window, (told) => report(JSON.stringify(told)), { settings, frame: framePath(window) });
    },
    disarm() {
      disarm?.();
      disarm = null;
    },
  };
}
