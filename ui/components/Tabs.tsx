// Tabs as the ARIA pattern has them: a tab list whose arrows move between the tabs, and the
// chosen tab's panel. Every panel stays in the page, hidden when not chosen, so what it holds
// (a log's filters, a laid-out statechart, a run looked at) is there again when it comes back.
import type { ComponentChildren } from "preact";
import { useRef } from "preact/hooks";

export interface TabSpec {
  id: string;
  label: string;
  render(): ComponentChildren;
}


export function Tabs({ label, tabs, chosen, onChoose }: { label: string; tabs: readonly TabSpec[]; chosen: string; onChoose(id: string): void }) {
  const list = useRef<HTMLDivElement>(null);
  const current = tabs.find((t) => t.id === chosen) ?? tabs[0];
  const go = (index: number) => {
    const tab = tabs[(index + tabs.length) % tabs.length];
    onChoose(tab.id);
    list.current?.querySelector<HTMLElement>(`#tab-${tab.id}`)?.focus();
  };
  return (
    <section class="panel tabs" data-testid="tabs">
      <div
        class="tab-list"
        role="tablist"
        aria-label={label}
        ref={list}
        onKeyDown={(event) => {
          const at = tabs.findIndex((t) => t.id === current.id);
          if (event.key === "ArrowRight") go(at + 1);
          else if (event.key === "ArrowLeft") go(at - 1);
          else return;
          event.preventDefault();
        }}
      >
        {tabs.map((tab) => (
          <button
            key={tab.id}
            id={`tab-${tab.id}`}
            type="button"
            role="tab"
            aria-selected={tab.id === current.id ? "true" : "false"}
            aria-controls={`tabpanel-${tab.id}`}
            tabIndex={tab.id === current.id ? 0 : -1}
            onClick={() => onChoose(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          class="tab-panel"
          role="tabpanel"
          id={`tabpanel-${tab.id}`}
          aria-labelledby={`tab-${tab.id}`}
          data-testid={`tabpanel-${tab.id}`}
          hidden={tab.id !== current.id}
        >
          {tab.render()}
        </div>
      ))}
    </section>
  );
}
