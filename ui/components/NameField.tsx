// A name typed in place (a new test or suite, or a new name for one): Enter saves, Escape or
// leaving the field gives up, and a name the IDE would refuse (empty, taken) is said at once,
// next to the field, so a mistake never reaches the IDE.
import { useEffect, useRef, useState } from "preact/hooks";

export function NameField({
  label,
  initial,
  testId,
  problemOf,
  onCommit,
  onCancel,
}: {
  /** The field's accessible name: "Name of the new test", `New name for "logs in"`. */
  label: string;
  initial: string;
  /** data-testid of the field; its problem's is the same with "-problem". */
  testId: string;
  problemOf(name: string): string | null;
  onCommit(name: string): void;
  onCancel(): void;
}) {
  const field = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);
  const commit = () => {
    const name = field.current?.value ?? "";
    if (name.trim() === initial.trim() && initial.trim() !== "") return onCancel(); // nothing to change
    const why = problemOf(name);
    if (why !== null) return setProblem(why);
    onCommit(name.trim());
  };
  return (
    <span class="name-field">
      <input
        ref={field}
        type="text"
        aria-label={label}
        data-testid={testId}
        defaultValue={initial}
        aria-invalid={problem !== null ? "true" : undefined}
        aria-describedby={problem !== null ? `${testId}-problem` : undefined}
        onKeyDown={(event) => {
          event.stopPropagation();
          if (event.key === "Enter") {
            event.preventDefault();
            commit();
          } else if (event.key === "Escape") {
            event.preventDefault();
            onCancel();
          }
        }}
        onInput={() => problem !== null && setProblem(null)}
      />
      {problem !== null && (
        <span class="field-problem" id={`${testId}-problem`} role="alert" data-testid={`${testId}-problem`}>
          {problem}
        </span>
      )}
    </span>
  );
}
