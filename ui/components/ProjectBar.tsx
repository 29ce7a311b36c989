// The project's line at the top: its name, id, file and whether it has unsaved changes, and the
// user's ways to change that: Undo and Redo (their titles say what they would do, from the
// IDE's history), New project, Save (Ctrl+S), Save as… and loading a .side file. A file is read
// and JSON-parsed here, so one that is not JSON is told at once; whether the JSON is a usable
// project is the IDE's call, which writes its answer to the log. "Save as…" asks for a path in
// the host (SaveAsDialog), and is the transport's own where it has one (the extension's asks
// the browser where to save). A Chrome Recorder flow (.json) is read here into a project of one
// test (services/chromeRecorder), its warnings shown under the buttons.
import { useEffect, useState } from "preact/hooks";
import { flowToProject, looksLikeFlow } from "../../services/chromeRecorder/index.ts";
import type { UserEventMessage } from "../connection.ts";
import type { UiView } from "../protocol.ts";
import { historyOf, projectPathOf, recentProjectsOf } from "../viewFields.ts";
import { SaveAsDialog } from "./SaveAsDialog.tsx";

export function ProjectBar({ view, send, saveAs }: { view: UiView; send: (event: UserEventMessage) => void; saveAs: (() => void) | null }) {
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loadWarnings, setLoadWarnings] = useState<string[]>([]);
  const [asking, setAsking] = useState(false);
  const project = view.project;
  const history = historyOf(view);
  const path = projectPathOf(view);

  // Ctrl+S saves wherever the focus is, as in every editor.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "s") {
        event.preventDefault();
        send({ type: "user.saveProject" });
      }
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [send]);

  async function load(input: HTMLInputElement) {
    const file = input.files?.[0];
    input.value = ""; // the same file can be picked again after fixing it
    if (!file) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch (error) {
      setLoadError(`"${file.name}" is not a .side file: it is not valid JSON (${(error as Error).message}).`);
      return;
    }
    setLoadError(null);
    setLoadWarnings([]);
    const side = typeof parsed === "object" && parsed !== null && "tests" in parsed;
    if (looksLikeFlow(parsed) || (/\.json$/i.test(file.name) && !side)) {
      const flow = flowToProject(parsed, file.name);
      if (!flow.ok) {
        setLoadError(`"${file.name}" is not a usable Chrome Recorder flow: ${flow.problem}.`);
        return;
      }
      setLoadWarnings(flow.warnings);
      parsed = flow.project;
    }
    send({ type: "user.loadProject", project: parsed });
  }

  return (
    <div class="project-bar" data-testid="project">
      <p class="project-line">
        <strong data-testid="project-name">{project.name}</strong>
        <code data-testid="project-id">{project.id}</code>
        {project.unsaved ? (
          <span class="unsaved" data-testid="unsaved">
            ● unsaved changes
          </span>
        ) : (
          <span class="saved" data-testid="saved">
            saved
          </span>
        )}
        {path && (
          <code class="project-file" data-testid="project-file" title="Save writes this file">
            {path}
          </code>
        )}
      </p>
      <div class="buttons" role="group" aria-label="Project">
        <button type="button" disabled={!history.canUndo} title={history.undo ? `Undo: ${history.undo}` : "Nothing to undo"} onClick={() => send({ type: "user.undo" })}>
          Undo
        </button>
        <button type="button" disabled={!history.canRedo} title={history.redo ? `Redo: ${history.redo}` : "Nothing to redo"} onClick={() => send({ type: "user.redo" })}>
          Redo
        </button>
        <button type="button" onClick={() => send({ type: "user.newProject" })}>
          New project
        </button>
        <button type="button" title="Ctrl+S" onClick={() => send({ type: "user.saveProject" })}>
          Save
        </button>
        <button type="button" onClick={() => (saveAs ? saveAs() : setAsking(true))}>
          Save as…
        </button>
        <label class="file-button">
          Load a .side file or a Chrome Recorder flow
          <input type="file" accept=".side,.json,application/json" data-testid="load-file" onChange={(event) => void load(event.currentTarget as HTMLInputElement)} />
        </label>
      </div>
      {loadError !== null && (
        <p class="load-error" role="alert" data-testid="load-error">
          {loadError}
        </p>
      )}
      {loadWarnings.length > 0 && (
        <ul class="load-warnings" aria-label="Chrome Recorder steps that do not play as they are" data-testid="load-warnings">
          {loadWarnings.map((warning, i) => (
            <li key={i}>{warning}</li>
          ))}
        </ul>
      )}
      {asking && <SaveAsDialog path={path} name={project.name} recent={recentProjectsOf(view)} send={send} onClose={() => setAsking(false)} />}
    </div>
  );
}
