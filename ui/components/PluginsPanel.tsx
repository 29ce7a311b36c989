// The plugins registered in this plugin session; the controller, if any, is marked.
import type { UiView } from "../protocol.ts";

export function PluginsPanel({ plugins, controller }: { plugins: UiView["plugins"]; controller: string | null }) {
  return (
    <section class="panel" aria-labelledby="plugins-heading" data-testid="plugins">
      <h2 id="plugins-heading">Plugins</h2>
      {plugins.length === 0 ? (
        <p class="empty">No plugin is registered.</p>
      ) : (
        <ul class="plugins">
          {plugins.map((plugin) => (
            <li key={plugin.id} data-testid="plugin" data-plugin-id={plugin.id}>
              <strong>{plugin.name}</strong> <span class="version">{plugin.version}</span>{" "}
              <code class="plugin-id">{plugin.id}</code>
              {plugin.id === controller && <span class="tag tag-controller">in control</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
