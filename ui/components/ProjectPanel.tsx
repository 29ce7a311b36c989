// The loaded project: what it is, whether it has unsaved changes, and the user's ways to
// change that (save, load a .side file; the test editor makes the changes). A file is read and JSON-parsed here, so a
// file that is not JSON is told to the user at once; whether the JSON is a usable project
// is the IDE's call, which writes its answer to the log. The project's settings (children) go below.
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import type { UiView } from "../protocol.ts";

export function ProjectPanel({ project, send, children }: { project: UiView["project"]; send: (event: UserEventMessage) => void; children?: ComponentChildren }) {
  const [loadError, setLoadError] = useState<string | null>(null);

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
    send({ type: "user.loadProject", project: parsed });
  }

  return (
    <section class="panel" aria-labelledby="project-heading" data-testid="project">
      <h2 id="project-heading">Project</h2>
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
      </p>
      <div class="buttons">
        <button type="button" onClick={() => send({ type: "user.saveProject" })}>
          Save
        </button>
        <label class="file-button">
          Load a .side file
          <input
            type="file"
            accept=".side,application/json"
            data-testid="load-file"
            onChange={(event) => void load(event.currentTarget as HTMLInputElement)}
          />
        </label>
      </div>
      {loadError !== null && (
        <p class="load-error" role="alert" data-testid="load-error">
          {loadError}
        </p>
      )}
      {children}
    </section>
  );
}
