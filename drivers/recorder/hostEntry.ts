// The recorder as the host puts it into the page under test (drivers/host/recording.ts): in an
// isolated world of every document and frame, reporting through a DevTools binding that only
// that world has, so the page's own scripts can neither see nor call it. The project's
// recording settings come as HOST_SETTINGS (report.ts) in the same world (the host sets them there before a
// recording starts, and for every new document); the recorder reads them at each command.
import { attachRecorder } from "./recorder.ts";
import { HOST_SETTINGS as SETTINGS, readRecorderSettings } from "./report.ts";

declare const __ideCoreRecorded: ((payload: string) => void) | undefined;

const scope = globalThis as typeof globalThis & { __ideCoreRecorderAttached?: boolean; [SETTINGS]?: unknown };

if (!scope.__ideCoreRecorderAttached && typeof __ideCoreRecorded === "function") {
  scope.__ideCoreRecorderAttached = true;
  const report = __ideCoreRecorded;
  attachRecorder(window, (action) => report(JSON.stringify(action)), () => readRecorderSettings(scope[SETTINGS]));
}
