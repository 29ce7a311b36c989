// The IDE's log. Messages come from plugins and are shown as text: only the links
// splitLinks finds (http, https, mailto) become anchors, and nothing is ever parsed as
// markup, so a message cannot run script or change the page. The list follows new
// entries while the user is at its bottom, and stays put while they read further up.
import { useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { isAllowedHref, splitLinks } from "../../services/logs/index.ts";
import type { LogEntry, UiView } from "../protocol.ts";

type GroupFilter = "all" | "system" | "playback";
type LevelFilter = "all" | "warn" | "error";

/** The DOM holds the newest entries only; the IDE keeps up to 20,000 and most are history. */
export const MAX_RENDERED = 1000;

const RANK = { info: 0, warn: 1, error: 2 } as const;

function time(at: number): string {
  const d = new Date(at);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}

function Message({ text }: { text: string }) {
  const parts = useMemo(() => splitLinks(text), [text]);
  return (
    <span class="log-message" data-testid="log-message">
      {parts.map((part, i) =>
        part.kind === "link" && isAllowedHref(part.href) ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer">
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </span>
  );
}

function Entry({ entry }: { entry: LogEntry }) {
  return (
    <li
      class={`log-entry level-${entry.level}`}
      data-testid="log-entry"
      data-id={entry.id}
      data-group={entry.group}
      data-level={entry.level}
    >
      <time class="log-time">{time(entry.at)}</time>
      <span class="log-level">{entry.level}</span>
      <span class={`log-group group-${entry.group}`}>{entry.group}</span>
      <span class="log-source" title={entry.source}>
        {entry.source}
      </span>
      <Message text={entry.message} />
    </li>
  );
}

export function LogsPanel({ logs, dropped }: { logs: LogEntry[]; dropped: UiView["logsDropped"] | null }) {
  const [group, setGroup] = useState<GroupFilter>("all");
  const [level, setLevel] = useState<LevelFilter>("all");
  const list = useRef<HTMLOListElement>(null);
  const atBottom = useRef(true);

  const shown = useMemo(() => {
    const minimum = level === "all" ? 0 : RANK[level];
    const matching = logs.filter((e) => (group === "all" || e.group === group) && RANK[e.level] >= minimum);
    return { total: matching.length, entries: matching.slice(-MAX_RENDERED) };
  }, [logs, group, level]);

  useLayoutEffect(() => {
    const el = list.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [shown]);

  const droppedCount = dropped ? dropped.system + dropped.playback : 0;
  return (
    <section class="panel logs-panel" aria-labelledby="logs-heading" data-testid="logs">
      <div class="logs-header">
        <h2 id="logs-heading">Logs</h2>
        <label>
          Group{" "}
          <select
            data-testid="log-group-filter"
            value={group}
            onChange={(event) => setGroup((event.currentTarget as HTMLSelectElement).value as GroupFilter)}
          >
            <option value="all">All groups</option>
            <option value="system">System</option>
            <option value="playback">Playback</option>
          </select>
        </label>
        <label>
          Level{" "}
          <select
            data-testid="log-level-filter"
            value={level}
            onChange={(event) => setLevel((event.currentTarget as HTMLSelectElement).value as LevelFilter)}
          >
            <option value="all">All levels</option>
            <option value="warn">Warnings and errors</option>
            <option value="error">Errors only</option>
          </select>
        </label>
      </div>
      {(shown.total > shown.entries.length || droppedCount > 0) && (
        <p class="logs-note">
          {shown.total > shown.entries.length && `Showing the newest ${shown.entries.length} of ${shown.total} entries. `}
          {droppedCount > 0 && `${droppedCount} older entries were dropped past the log's cap.`}
        </p>
      )}
      <ol
        class="log-list"
        ref={list}
        data-testid="log-list"
        onScroll={(event) => {
          const el = event.currentTarget as HTMLOListElement;
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
      >
        {shown.entries.map((entry) => (
          <Entry key={entry.id} entry={entry} />
        ))}
      </ol>
      {shown.entries.length === 0 && <p class="empty">No log entries{group !== "all" || level !== "all" ? " match the filters" : ""}.</p>}
    </section>
  );
}
