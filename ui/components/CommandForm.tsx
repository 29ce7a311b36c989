// The command form under the table: command, target, value and description (v3's comment) of
// the selected command, or the first three of a new one. The command field is a combobox of every name the editor knows (Selenium IDE's
// commands and the registered plugins', commandNames.ts) and says under it what the command
// does and what its target and value mean.
//   - editing: a field's change goes to the IDE when it is committed (Enter, or leaving it);
//     Escape puts back what the IDE has and returns to the grid;
//   - new: Enter in any field (or "Add the command") inserts it after the selected command (at
//     the end when none is), and the form is ready for the next one, so a test is typed in a
//     row; Escape returns to the grid.
// The fields are the user's while they type: what the IDE has comes back into them when
// another command is selected, or when that command changes in the IDE (a plugin's edit).
import type { RefObject } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import type { CommandOutline } from "../protocol.ts";
import { choiceLabel, findChoice } from "../commandNames.ts";
import type { CommandChoice } from "../commandNames.ts";
import { LocatorField } from "./LocatorField.tsx";
import { AlternativeLocators } from "./AlternativeLocators.tsx";

type Fields = { command: string; target: string; value: string; comment: string };
const EMPTY: Fields = { command: "", target: "", value: "", comment: "" };
const fieldsOf = (c: CommandOutline | null): Fields => (c ? { command: c.command, target: c.target, value: c.value, comment: c.comment ?? "" } : EMPTY);

function CommandHelp({ choice, command }: { choice: CommandChoice | null; command: string }) {
  if (command.trim() === "") return <p class="hint command-help" id="command-help">Type a command or pick one from the list.</p>;
  if (choice === null)
    return (
      <p class="hint command-help unknown" id="command-help" data-testid="command-help">
        "{command.trim()}" is not a Selenium IDE command, nor one a registered plugin declared.
      </p>
    );
  return (
    <div class="hint command-help" id="command-help" data-testid="command-help">
      <p>
        <strong>{choice.name}</strong>
        {choice.source !== "Selenium IDE" && <span class="tag">{choice.source}</span>}
        {choice.description ? ` — ${choice.description}` : ""}
      </p>
      {choice.target !== null && <p>Target: {choice.target}</p>}
      {choice.value !== null && <p>Value: {choice.value}</p>}
    </div>
  );
}

export function CommandForm({
  selected,
  adding,
  position,
  choices,
  locked,
  commandField,
  resolveLocator,
  send,
  onAdded,
  onLeave,
}: {
  /** The command the form edits; null while adding with nothing selected. */
  selected: CommandOutline | null;
  /** The form makes a new command (after `selected`, or at the end). */
  adding: boolean;
  /** Where a new command goes, as the user reads it. */
  position: string;
  choices: readonly CommandChoice[];
  locked: boolean;
  commandField: RefObject<HTMLInputElement | null>;
  resolveLocator: ((location: string) => Promise<unknown>) | null;
  send: (event: UserEventMessage) => void;
  /** A command was added: the form stays a new command's, for the next one. */
  onAdded(): void;
  /** Escape: back to the grid. */
  onLeave(): void;
}) {
  const source = adding ? null : selected;
  const [draft, setDraft] = useState<Fields>(fieldsOf(source));
  const [problem, setProblem] = useState<string | null>(null);
  /** The last change sent for a command, so Enter and leaving the field do not send it twice. */
  const lastSent = useRef("");
  /** What the IDE had when the fields last took it: a field the IDE changed since is taken again, the others stay as typed. */
  const taken = useRef<{ key: string; fields: Fields }>({ key: "", fields: fieldsOf(source) });
  useEffect(() => {
    const key = `${adding}:${source?.id ?? ""}`;
    const now = fieldsOf(source);
    const before = taken.current;
    taken.current = { key, fields: now };
    if (before.key !== key) {
      setDraft(now);
      setProblem(null);
      lastSent.current = "";
      return;
    }
    setDraft((d) => ({
      command: now.command !== before.fields.command ? now.command : d.command,
      target: now.target !== before.fields.target ? now.target : d.target,
      value: now.value !== before.fields.value ? now.value : d.value,
      comment: now.comment !== before.fields.comment ? now.comment : d.comment,
    }));
  }, [adding, source?.id, source?.command, source?.target, source?.value, source?.comment]);

  const set = (field: keyof Fields) => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    if (problem !== null) setProblem(null);
  };

  const add = () => {
    if (draft.command.trim() === "") {
      setProblem("Name the command first: type it or pick it from the list.");
      commandField.current?.focus();
      return;
    }
    send({ type: "user.addCommand", command: draft.command.trim(), target: draft.target, value: draft.value });
    setDraft(EMPTY);
    onAdded();
    commandField.current?.focus();
  };
  const commit = () => {
    if (adding || source === null) return;
    if (draft.command.trim() === "") {
      setProblem("A command needs a name; Escape puts the old one back.");
      return;
    }
    const change: Partial<Fields> = {};
    if (draft.command.trim() !== source.command) change.command = draft.command.trim();
    if (draft.target !== source.target) change.target = draft.target;
    if (draft.value !== source.value) change.value = draft.value;
    if (draft.comment !== (source.comment ?? "")) change.comment = draft.comment;
    const key = JSON.stringify([source.id, change]);
    if (Object.keys(change).length === 0 || key === lastSent.current) return;
    lastSent.current = key;
    send({ type: "user.changeCommand", commandId: source.id, ...change });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Enter" && !event.isComposing) {
      event.preventDefault();
      if (adding) add();
      else commit();
    } else if (event.key === "Escape") {
      event.preventDefault();
      setDraft(fieldsOf(source));
      setProblem(null);
      onLeave();
    }
  };

  const choice = findChoice(choices, draft.command);
  const disabled = locked || (!adding && source === null);
  return (
    <div
      class={`command-form ${adding ? "adding" : "editing"}`}
      role="group"
      aria-labelledby="command-form-heading"
      data-testid="command-form"
      data-mode={adding ? "new" : "edit"}
    >
      <h3 id="command-form-heading">{adding ? `New command (${position})` : source ? "The selected command" : "No command selected"}</h3>
      <div class="field">
        <label for="editor-command">Command</label>
        <input
          id="editor-command"
          ref={commandField}
          type="text"
          role="combobox"
          list="editor-command-names"
          data-testid="editor-command-field"
          autocomplete="off"
          spellcheck={false}
          value={draft.command}
          disabled={disabled}
          aria-invalid={problem !== null ? "true" : undefined}
          aria-describedby={problem !== null ? "command-problem command-help" : "command-help"}
          onInput={(event) => set("command")((event.currentTarget as HTMLInputElement).value)}
          onChange={commit}
          onKeyDown={onKeyDown}
        />
        <datalist id="editor-command-names">
          {choices.map((c) => (
            <option key={`${c.source}:${c.id}`} value={c.id} label={choiceLabel(c)} />
          ))}
        </datalist>
        {problem !== null && (
          <p class="field-problem" id="command-problem" role="alert" data-testid="command-problem">
            {problem}
          </p>
        )}
        <CommandHelp choice={choice} command={draft.command} />
      </div>
      <LocatorField
        value={draft.target}
        disabled={disabled}
        resolveLocator={resolveLocator}
        onInput={set("target")}
        onCommit={commit}
        onKeyDown={onKeyDown}
        onSelectInPage={source ? () => send({ type: "user.selectTargetInPage", commandId: source.id }) : null}
      />
      {!adding && source !== null && source.targets && (
        <AlternativeLocators commandId={source.id} target={source.target} targets={source.targets} disabled={disabled} send={send} />
      )}
      <div class="field">
        <label for="editor-value">Value</label>
        <input
          id="editor-value"
          type="text"
          data-testid="editor-value-field"
          value={draft.value}
          disabled={disabled}
          spellcheck={false}
          onInput={(event) => set("value")((event.currentTarget as HTMLInputElement).value)}
          onChange={commit}
          onKeyDown={onKeyDown}
        />
      </div>
      {!adding && (
        <div class="field">
          <label for="editor-comment">Description</label>
          <input
            id="editor-comment"
            type="text"
            data-testid="editor-comment-field"
            value={draft.comment}
            disabled={disabled}
            placeholder="What this step is for (Selenium IDE's comment)"
            onInput={(event) => set("comment")((event.currentTarget as HTMLInputElement).value)}
            onChange={commit}
            onKeyDown={onKeyDown}
          />
        </div>
      )}
      {adding && (
        <div class="buttons">
          <button type="button" class="primary" disabled={locked} onClick={add}>
            Add the command
          </button>
          <button type="button" onClick={onLeave}>
            Done adding
          </button>
        </div>
      )}
    </div>
  );
}
