// "Save as…" in the host: the file the project goes to, typed as an absolute path (prefilled
// with the one it was last saved to or opened from), and the recent projects, each opened with
// a click (user.openRecent, which asks first over unsaved changes). A path that is not absolute
// is said here at once; a folder that is missing is the host's to say, in the log.
import { useEffect, useRef, useState } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";

/** Whether a path is absolute on the host (POSIX `/…`, Windows `C:\…` or `\\server\…`). */
export const isAbsolutePath = (path: string) => /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(path);

export function SaveAsDialog({
  path,
  name,
  recent,
  send,
  onClose,
}: {
  path: string | null;
  /** The project's name, for a first file name when it has no path yet. */
  name: string;
  recent: readonly string[];
  send: (event: UserEventMessage) => void;
  onClose(): void;
}) {
  const field = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => field.current?.focus(), []);
  const save = () => {
    const chosen = (field.current?.value ?? "").trim();
    if (!isAbsolutePath(chosen)) return setProblem("Give the file's absolute path, such as /home/me/tests/shop.side.");
    send({ type: "user.saveProject", path: chosen });
    onClose();
  };
  const suggested = path ?? `${name.replace(/[^\w.-]+/g, "-") || "project"}.side`;
  return (
    <div class="dialog-backdrop">
      <div
        class="dialog dialog-save-as"
        role="dialog"
        aria-modal="true"
        aria-labelledby="save-as-title"
        data-testid="save-as-dialog"
        onKeyDown={(event) => event.key === "Escape" && onClose()}
      >
        <h2 id="save-as-title">Save the project as…</h2>
        <p class="hint" data-testid="project-path">
          {path ? (
            <>
              Saved to <code>{path}</code>: Save writes there.
            </>
          ) : (
            "Not saved to a file of your choosing yet."
          )}
        </p>
        <label class="field">
          File (an absolute path)
          <input
            ref={field}
            type="text"
            data-testid="save-as-path"
            defaultValue={suggested}
            spellcheck={false}
            aria-invalid={problem !== null ? "true" : undefined}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                save();
              }
            }}
            onInput={() => problem !== null && setProblem(null)}
          />
        </label>
        {problem !== null && (
          <p class="field-problem" role="alert" data-testid="save-as-problem">
            {problem}
          </p>
        )}
        <div class="buttons">
          <button type="button" class="primary" onClick={save}>
            Save here
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
        {recent.length > 0 && (
          <>
            <h3 id="recent-heading">Recent projects</h3>
            <ul class="recent-projects" aria-labelledby="recent-heading" data-testid="recent-projects">
              {recent.map((file) => (
                <li key={file}>
                  <button
                    type="button"
                    class="link-button"
                    aria-label={`Open ${file}`}
                    onClick={() => {
                      send({ type: "user.openRecent", path: file });
                      onClose();
                    }}
                  >
                    {file}
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </div>
  );
}
