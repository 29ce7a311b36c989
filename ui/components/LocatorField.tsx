// The command form's target, with "Find": the IDE resolves the target as a locator in the
// page (the page under test while a run has one) and the xpath it found, or why it found
// none, is shown under the field as text; where the IDE reaches a page under test (CONTRACT
// section 21), the first element it finds is outlined there for 2 s and the form says how many
// match. An answer belongs to the target it was asked for: typing in the field clears it, and
// an answer that comes back after that is dropped.
import { useContext, useEffect, useRef, useState } from "preact/hooks";
import { failedAsking, readLocatorReply } from "../locatorAnswer.ts";
import type { LocatorAnswer } from "../locatorAnswer.ts";
import { findWording, PageFinderContext } from "../pageFinder.ts";
import type { FindResult } from "../pageFinder.ts";

export function LocatorField({
  value,
  disabled,
  resolveLocator,
  onInput,
  onCommit,
  onKeyDown,
  onSelectInPage = null,
}: {
  value: string;
  disabled: boolean;
  /** Select target in page (CONTRACT section 21): the next click on the page sets the command's target; null where there is no command. */
  onSelectInPage?: (() => void) | null;
  resolveLocator: ((location: string) => Promise<unknown>) | null;
  onInput(value: string): void;
  onCommit(): void;
  onKeyDown(event: KeyboardEvent): void;
}) {
  const finder = useContext(PageFinderContext);
  const [answer, setAnswer] = useState<{ for: string; answer: LocatorAnswer | null; found: FindResult | null } | null>(null);
  const [asking, setAsking] = useState<string | null>(null);
  const latest = useRef(value);
  latest.current = value;
  useEffect(() => {
    if (answer !== null && answer.for !== value) setAnswer(null);
  }, [value]);

  const resolve = async (target: string): Promise<LocatorAnswer | null> => {
    if (!resolveLocator) return null;
    try {
      return readLocatorReply(await resolveLocator(target));
    } catch (error) {
      return failedAsking(error);
    }
  };
  const find = async () => {
    const target = value.trim();
    setAsking(target);
    const [result, found] = await Promise.all([resolve(target), finder ? finder.find(target, true) : null]);
    setAsking(null);
    if (latest.current.trim() === target) setAnswer({ for: value, answer: result, found });
  };

  return (
    <div class="field locator-field">
      <label for="editor-target">Target</label>
      <div class="field-row">
        <input
          id="editor-target"
          type="text"
          data-testid="editor-target-field"
          value={value}
          disabled={disabled}
          spellcheck={false}
          aria-describedby={answer === null ? undefined : answer.found ? "locator-matches locator-result" : "locator-result"}
          onInput={(event) => onInput((event.currentTarget as HTMLInputElement).value)}
          onChange={onCommit}
          onKeyDown={onKeyDown}
        />
        {(resolveLocator !== null || finder !== null) && (
          <button
            type="button"
            disabled={disabled || value.trim() === "" || asking !== null}
            title="Find target in page: outline the element the target finds in the page under test for 2 s, and say how many match"
            onClick={() => void find()}
          >
            {asking !== null ? "Finding…" : "Find"}
          </button>
        )}
        {onSelectInPage && (
          <button type="button" disabled={disabled} title="Click an element on the page: it becomes the target" onClick={onSelectInPage}>
            Select target in page
          </button>
        )}
      </div>
      {finder !== null && (
        <output
          id="locator-matches"
          class={`locator-matches${answer?.found ? (answer.found.ok && answer.found.count > 0 ? " found" : " not-found") : ""}`}
          data-testid="locator-matches"
          data-code={answer?.found && !answer.found.ok ? (answer.found.code ?? undefined) : undefined}
          aria-live="polite"
        >
          {answer?.found ? findWording(answer.found) : null}
        </output>
      )}
      <output
        id="locator-result"
        class={!answer?.answer ? "locator-result" : `locator-result ${answer.answer.ok ? "found" : "not-found"}`}
        data-testid="locator-result"
        data-code={answer?.answer && !answer.answer.ok ? (answer.answer.code ?? undefined) : undefined}
        aria-live="polite"
      >
        {!answer?.answer ? null : answer.answer.ok ? (
          <>
            xpath <code data-testid="locator-xpath">{answer.answer.xpath}</code>
          </>
        ) : (
          answer.answer.message
        )}
      </output>
    </div>
  );
}
