// The project's recording settings (CONTRACT section 18): the order of the locator builders,
// whose first locator a recorded command targets, and the attributes that hold test ids. The
// user moves a builder up or down and edits the attribute list; each change is one
// user.changeSettings, which the IDE checks (its error goes to the log) and which makes the
// project unsaved. Beside them, the project's `heal` setting: a checkbox that is one
// user.changeSettings `{ heal }` too; under `--no-heal` it says that healing is off whatever it says.
// What is shown is always the IDE's view, never a local copy that could drift.
import { useEffect, useState } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import type { UiView } from "../protocol.ts";

type Settings = UiView["recordingSettings"];
type Healing = UiView["healing"];
type ChangeSettings = Extract<UserEventMessage, { type: "user.changeSettings" }>;

/** The order with the builder at `index` moved by `by` (-1 up, +1 down); the same order at either end. */
export function moved(order: readonly string[], index: number, by: -1 | 1): string[] {
  const to = index + by;
  const next = order.slice();
  if (to < 0 || to >= next.length) return next;
  [next[index], next[to]] = [next[to], next[index]];
  return next;
}

/** The attributes a text names, separated by commas or spaces. */
export const attributesIn = (text: string) => text.split(/[\s,]+/).filter((name) => name !== "");

export function RecordingSettings({ settings, healing, send }: { settings: Settings; healing: Healing; send: (event: UserEventMessage) => void }) {
  const shown = settings.testIdAttributes.join(", ");
  const [attributes, setAttributes] = useState(shown);
  useEffect(() => setAttributes(shown), [shown]);
  const order = settings.locatorOrder;
  const change = (event: Omit<ChangeSettings, "type">) => send({ type: "user.changeSettings", ...event } as ChangeSettings);

  return (
    <>
      <p class="heal-setting">
        <label>
          <input type="checkbox" checked={healing.project} onChange={(event) => change({ heal: (event.currentTarget as HTMLInputElement).checked })} />{" "}
          Heal broken locators at playback
        </label>
        {healing.forcedOff ? (
          <span class="hint" data-testid="heal-forced-off">
            {" "}
            Off for this IDE (--no-heal): a healed command fails whatever the project says.
          </span>
        ) : null}
      </p>
      <details class="recording-settings" data-testid="recording-settings">
        <summary>Locator order</summary>
        <p class="hint">A recorded command targets the first locator of this order that finds its element; the others are kept as its alternatives.</p>
        <ol class="locator-order" aria-label="Locator order">
          {order.map((name, index) => (
            <li key={name}>
              <code>{name}</code>
              <button type="button" aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => change({ locatorOrder: moved(order, index, -1) as ChangeSettings["locatorOrder"] })}>
                ↑
              </button>
              <button
                type="button"
                aria-label={`Move ${name} down`}
                disabled={index === order.length - 1}
                onClick={() => change({ locatorOrder: moved(order, index, 1) as ChangeSettings["locatorOrder"] })}
              >
                ↓
              </button>
            </li>
          ))}
        </ol>
        <form
          class="buttons"
          onSubmit={(event) => {
            event.preventDefault();
            change({ testIdAttributes: attributesIn(attributes) });
          }}
        >
          <label>
            Test-id attributes{" "}
            <input value={attributes} onInput={(event) => setAttributes((event.currentTarget as HTMLInputElement).value)} size={40} />
          </label>
          <button type="submit" disabled={attributesIn(attributes).join(", ") === shown}>
            Apply
          </button>
        </form>
      </details>
    </>
  );
}
