// Code export (CONTRACT section 15): the displayed test or a suite as a file of Selenium's
// code. Each "Export…" opens a dialog with the language picker; the IDE writes the file
// (Selenium's packages, and the plugins that export the language) and the page downloads it
// under the packages' filename. A failure is shown as the IDE wrote it: it names the test,
// and the plugin when one failed it.
import { useEffect, useRef, useState } from "preact/hooks";
import type { ExportReply, ExportRequest, SuiteSummary, TestSummary } from "../protocol.ts";
import { EXPORT_LANGUAGES, EXPORT_LANGUAGE_NAMES } from "../../services/export/names.ts";
import type { ExportLanguage } from "../../services/export/names.ts";

// Chrome Recorder's flow (CONTRACT section 23) is one test's, written by the IDE beside the packages'
// languages; its ":comments" form keeps the commands with no step as customSteps.
const FLOW_LANGUAGES = { "chrome-recorder": "Chrome Recorder (JSON)", "chrome-recorder:comments": "Chrome Recorder (JSON), commands with no step as comments" } as const;
type Language = ExportLanguage | keyof typeof FLOW_LANGUAGES;

type Target = { kind: "test"; id: string; name: string } | { kind: "suite"; id: string; name: string };

export interface ExportPanelProps {
  tests: TestSummary[];
  suites: SuiteSummary[];
  displayedTestId: string | null;
  exportCode: (request: ExportRequest) => Promise<ExportReply>;
}

/** Saves a text file through the browser's download, under `filename`. */
function download(filename: string, body: string) {
  const url = URL.createObjectURL(new Blob([body], { type: "text/plain;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function ExportPanel({ tests, suites, displayedTestId, exportCode }: ExportPanelProps) {
  const [target, setTarget] = useState<Target | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const displayed = tests.find((test) => test.id === displayedTestId) ?? null;
  const open = (next: Target) => {
    setDone(null);
    setTarget(next);
  };
  return (
    <section class="panel" aria-labelledby="export-heading" data-testid="export">
      <h2 id="export-heading">Export code</h2>
      <div class="buttons">
        <button
          type="button"
          data-testid="export-test"
          disabled={displayed === null}
          onClick={() => displayed && open({ kind: "test", id: displayed.id, name: displayed.name })}
        >
          {displayed ? `Export test "${displayed.name}"…` : "Export test…"}
        </button>
        {suites.map((suite) => (
          <button key={suite.id} type="button" data-testid="export-suite" onClick={() => open({ kind: "suite", id: suite.id, name: suite.name })}>
            Export suite "{suite.name}"…
          </button>
        ))}
      </div>
      {done !== null && (
        <p class="export-done" role="status" data-testid="export-done">
          Downloaded <code>{done}</code>
        </p>
      )}
      {target !== null && (
        <ExportDialog
          target={target}
          exportCode={exportCode}
          onClose={(filename) => {
            setTarget(null);
            if (filename) setDone(filename);
          }}
        />
      )}
    </section>
  );
}

let lastLanguage: Language = "javascript-mocha";

function ExportDialog({ target, exportCode, onClose }: { target: Target; exportCode: ExportPanelProps["exportCode"]; onClose: (filename?: string) => void }) {
  const [language, setLanguage] = useState<Language>(target.kind === "suite" && lastLanguage in FLOW_LANGUAGES ? "javascript-mocha" : lastLanguage);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const picker = useRef<HTMLSelectElement>(null);
  useEffect(() => picker.current?.focus(), []);

  async function run() {
    setBusy(true);
    setError(null);
    lastLanguage = language;
    const request: ExportRequest = target.kind === "test" ? { language, testId: target.id } : { language, suiteId: target.id };
    try {
      const reply = await exportCode(request);
      if ("error" in reply) {
        setError(reply.error);
      } else {
        download(reply.filename, reply.body);
        onClose(reply.filename);
      }
    } catch (problem) {
      setError(`The IDE could not be asked: ${problem instanceof Error ? problem.message : String(problem)}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div class="dialog-backdrop">
      <div
        class="dialog dialog-export"
        role="dialog"
        aria-modal="true"
        aria-labelledby="export-title"
        data-testid="export-dialog"
        onKeyDown={(event) => {
          if (event.key === "Escape" && !busy) onClose();
        }}
      >
        <h2 id="export-title">
          Export {target.kind} "{target.name}"
        </h2>
        <label>
          Language{" "}
          <select
            ref={picker}
            data-testid="export-language"
            value={language}
            disabled={busy}
            onChange={(event) => setLanguage((event.currentTarget as HTMLSelectElement).value as Language)}
          >
            {EXPORT_LANGUAGES.map((id) => (
              <option key={id} value={id}>
                {EXPORT_LANGUAGE_NAMES[id]}
              </option>
            ))}
            {target.kind === "test" &&
              Object.entries(FLOW_LANGUAGES).map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
          </select>
        </label>
        {error !== null && (
          <p class="load-error" role="alert" data-testid="export-error">
            {error}
          </p>
        )}
        <div class="buttons">
          <button type="button" data-testid="export-run" disabled={busy} onClick={() => void run()}>
            {busy ? "Exporting…" : "Export and download"}
          </button>
          <button type="button" disabled={busy} onClick={() => onClose()}>
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}
