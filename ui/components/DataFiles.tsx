// The data files the project carries (CONTRACT section 22): what `loadVars FILE` reads in the
// browser extension, which cannot read the disk, and in `npm start` and `npm run play` when the
// disk has no such file. "Add data file" reads a .csv or .json file the user picks and sends it
// whole (user.addDataFile; one of the same name is replaced); the IDE checks it (a file that is
// not a data file is refused, its warning in the log) and it is one undo step. What is listed
// is the IDE's view, never a local copy.
import { useRef, useState } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import type { UiView } from "../protocol.ts";
import { MAX_DATA_FILE_CHARS } from "../../services/side/dataFiles.ts";

const sizeText = (chars: number) => (chars < 1024 ? `${chars} characters` : `${Math.round(chars / 1024)} K characters`);

export function DataFiles({ files, send }: { files: UiView["dataFiles"]; send: (event: UserEventMessage) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const add = async () => {
    const file = input.current?.files?.[0];
    if (!file) return;
    setProblem(null);
    try {
      const content = await file.text();
      if (content.length > MAX_DATA_FILE_CHARS) setProblem(`${file.name} is too large to carry in the project (at most ${MAX_DATA_FILE_CHARS / (1024 * 1024)} M characters).`);
      else send({ type: "user.addDataFile", name: file.name, content });
    } catch (error) {
      setProblem(`${file.name} could not be read: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      if (input.current) input.current.value = "";
    }
  };
  return (
    <div class="data-files" data-testid="data-files">
      <h3>Data files</h3>
      <p class="hint">What loadVars reads when no such file is on the disk (in the browser extension, always). They are saved in the .side file.</p>
      {files.length === 0 ? (
        <p class="empty" data-testid="no-data-files">
          The project carries none.
        </p>
      ) : (
        <ul aria-label="Data files">
          {files.map((file) => (
            <li key={file.name} data-testid="data-file">
              <code>{file.name}</code> <span class="hint">{sizeText(file.chars)}</span>{" "}
              <button type="button" aria-label={`Remove data file ${file.name}`} onClick={() => send({ type: "user.removeDataFile", name: file.name })}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <label class="field">
        Add data file
        <input ref={input} type="file" accept=".csv,.json,text/csv,application/json" data-testid="add-data-file" onChange={() => void add()} />
      </label>
      {problem && (
        <p class="field-problem" role="alert" data-testid="data-file-problem">
          {problem}
        </p>
      )}
    </div>
  );
}
