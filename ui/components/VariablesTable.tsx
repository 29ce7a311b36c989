// The run's variables (store, storeJson, forEach, plugins' PUT /playback/var): each name and
// its value as JSON text. A value is only ever text here, whatever it holds.
import type { RunSummary } from "../protocol.ts";

/** JSON text of a value; a value JSON cannot write (it never comes from the IDE) as plain text. */
const jsonText = (value: unknown) => {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

export function VariablesTable({ variables }: { variables: RunSummary["variables"] }) {
  const entries = Object.entries(variables);
  return (
    <div class="variables" data-testid="variables">
      <h3 id="variables-heading">Variables</h3>
      {entries.length === 0 ? (
        <p class="empty">The run has no variables.</p>
      ) : (
        <table class="variables-table" aria-labelledby="variables-heading">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Value (JSON)</th>
            </tr>
          </thead>
          <tbody>
            {entries.map(([name, value]) => (
              <tr key={name} data-testid="variable" data-name={name}>
                <th scope="row">
                  <code>{name}</code>
                </th>
                <td>
                  <code class="variable-value" data-testid="variable-value">
                    {jsonText(value)}
                  </code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
