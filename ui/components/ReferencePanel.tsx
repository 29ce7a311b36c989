// The Reference tab, as Selenium IDE v3's: what a command does, and what its target and value
// are, for the selected command (or any other one looked up by name). The words are Selenium
// IDE's own list (@seleniumhq/side-model, through commandNames.ts) and the registered plugins'
// `docs`; a disabled command (`//name`) is looked up by its name.
import { useState } from "preact/hooks";
import { choiceLabel, findChoice } from "../commandNames.ts";
import type { CommandChoice } from "../commandNames.ts";

export function ReferencePanel({ choices, selectedCommand }: { choices: readonly CommandChoice[]; selectedCommand: string | null }) {
  const [looked, setLooked] = useState<string | null>(null);
  const name = (looked ?? selectedCommand ?? "").replace(/^\/\//, "");
  const choice = findChoice(choices, name);
  return (
    <div class="reference" data-testid="reference">
      <label>
        Command{" "}
        <select
          data-testid="reference-command"
          value={choice ? `${choice.source}:${choice.id}` : ""}
          onChange={(event) => setLooked((event.currentTarget as HTMLSelectElement).value.replace(/^[^:]*:/, ""))}
        >
          {choice === null && <option value="">{name === "" ? "Select a command in the table" : `"${name}" (unknown)`}</option>}
          {choices.map((c) => (
            <option key={`${c.source}:${c.id}`} value={`${c.source}:${c.id}`}>
              {c.id}
            </option>
          ))}
        </select>
      </label>
      {looked !== null && selectedCommand !== null && (
        <button type="button" class="link-button" onClick={() => setLooked(null)}>
          Back to the selected command
        </button>
      )}
      {choice ? (
        <CommandReference choice={choice} />
      ) : (
        <p class="empty">{name === "" ? "Select a command in the table to read what it does." : `"${name}" is not a Selenium IDE command, nor one a registered plugin declared.`}</p>
      )}
    </div>
  );
}

function CommandReference({ choice }: { choice: CommandChoice }) {
  return (
    <article class="command-reference" aria-label={`Reference: ${choice.id}`} data-testid="command-reference">
      <h3>
        <code>{choice.id}</code> <span class="hint">{choice.source === "Selenium IDE" ? choice.name : `${choice.name}, from ${choice.source}`}</span>
      </h3>
      <p>{choice.description ?? choiceLabel(choice)}</p>
      <dl>
        <dt>Target</dt>
        <dd>{choice.target ?? "none: leave it empty"}</dd>
        <dt>Value</dt>
        <dd>{choice.value ?? "none: leave it empty"}</dd>
      </dl>
    </article>
  );
}
