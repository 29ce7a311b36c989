// The command form's target, with "Find": the IDE resolves the target as a locator in the
// page (the page under test while a run has one) and the xpath it found, or why it found
// none, is shown under the field as text. An answer belongs to the target it was asked for:
// typing in the field clears it, and an answer that comes back after that is dropped.
import { useEffect, useRef, useState } from "preact/hooks";
import { failedAsking, readLocatorReply } from "../locatorAnswer.ts";
import type { LocatorAnswer } from "../locatorAnswer.ts";

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
  const [answer, setAnswer] = useState<{ for: string; answer: LocatorAnswer } | null>(null);
  const [asking, setAsking] = useState<string | null>(null);
  const latest = useRef(value);
  latest.current = value;
  useEffect(() => {
    if (answer !== null && answer.for !== value) setAnswer(null);
  }, [value]);

  const find = async () => {
    if (!resolveLocator) return;
    const target = value.trim();
    setAsking(target);
    let result: LocatorAnswer;
    try {
      result = readLocatorReply(await resolveLocator(target));
    } catch (error) {
      result = failedAsking(error);
    }
    setAsking(null);
    if (latest.current.trim() === target) setAnswer({ for: value, answer: result });
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
          aria-describedby={answer !== null ? "locator-result" : undefined}
          onInput={(event) => onInput((event.currentTarget as HTMLInputElement).value)}
          onChange={onCommit}
          onKeyDown={onKeyDown}
        />
        {resolveLocator !== null && (
          <button
            type="button"
            disabled={disabled || value.trim() === "" || asking !== null}
            title="Resolve the target as a locator in the page and show the element's xpath"
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
      <output
        id="locator-result"
        class={answer === null ? "locator-result" : `locator-result ${answer.answer.ok ? "found" : "not-found"}`}
        data-testid="locator-result"
        data-code={answer !== null && !answer.answer.ok ? (answer.answer.code ?? undefined) : undefined}
        aria-live="polite"
      >
        {answer === null ? null : answer.answer.ok ? (
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
