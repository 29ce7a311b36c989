// The command form's "Alternative locators" (CONTRACT section 21): the command's recorded
// `targets`, each with how many elements it matches in the page under test when one is open,
// counted when the form shows the command and again when the page under test changes (the
// finder's key) or the user asks; not while a run plays, whose commands the questions would slow. "Use" makes one the target: the editor's `user.chooseLocator`,
// an edit like any other (Undo gives the old target back); the old target stays in the list.
import { useContext, useEffect, useRef, useState } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import { countWording, PageFinderContext } from "../pageFinder.ts";
import type { FindResult } from "../pageFinder.ts";

export function AlternativeLocators({
  commandId,
  target,
  targets,
  disabled,
  send,
}: {
  commandId: string;
  target: string;
  targets: readonly string[];
  disabled: boolean;
  send: (event: UserEventMessage) => void;
}) {
  const finder = useContext(PageFinderContext);
  const [counts, setCounts] = useState<{ key: string; results: ReadonlyMap<string, FindResult> } | null>(null);
  const [asked, setAsked] = useState(0);
  const generation = useRef(0);
  const key = `${commandId}\n${targets.join("\n")}\n${finder?.pageKey ?? ""}\n${asked}`;

  useEffect(() => {
    const mine = ++generation.current;
    if (!finder || finder.busy || targets.length === 0) return setCounts(null);
    void Promise.all(targets.map(async (locator) => [locator, await finder.find(locator, false)] as const)).then((results) => {
      if (generation.current === mine) setCounts({ key, results: new Map(results) });
    });
  }, [key]);

  if (targets.length === 0) return null;
  const results = counts?.key === key ? counts.results : null;
  const noPage = results !== null && [...results.values()].every((r) => !r.ok && r.code === "NoPage");
  const note =
    finder === null
      ? "This IDE reaches no page under test, so the matches are not counted."
      : finder.busy
        ? "A run is playing: the matches are counted when it pauses or ends."
        : results === null
        ? "Counting the matches in the page under test…"
        : noPage
          ? "No page is open, so the matches are not counted; play or record to open one."
          : "Matches in the page under test as it is now.";

  return (
    <div class="field alternative-locators" data-testid="alternative-locators">
      <div class="field-row">
        <span class="label" id="alternatives-heading">
          Alternative locators
        </span>
        {finder !== null && (
          <button type="button" disabled={results === null || finder.busy} onClick={() => setAsked((n) => n + 1)} title="Count each locator's matches again">
            Count again
          </button>
        )}
      </div>
      <p class="hint" data-testid="alternatives-note" aria-live="polite">
        {note}
      </p>
      <ul aria-label="Alternative locators">
        {targets.map((locator) => {
          const result = results?.get(locator);
          const isTarget = locator === target;
          return (
            <li key={locator} class={isTarget ? "current" : undefined} data-locator={locator}>
              <code>{locator}</code>{" "}
              {result && !noPage && (
                <span class={`count${result.ok && result.count === 1 ? " one" : ""}`} data-testid="alternative-count" title={result.ok ? undefined : result.message}>
                  {countWording(result)}
                </span>
              )}{" "}
              {isTarget ? (
                <span class="tag">the target</span>
              ) : (
                <button
                  type="button"
                  disabled={disabled}
                  aria-label={`Use ${locator} as the target`}
                  onClick={() => send({ type: "user.chooseLocator", commandId, locator })}
                >
                  Use
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
