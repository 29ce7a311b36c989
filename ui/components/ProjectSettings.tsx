// The project's own settings, edited in the page: its name and base URL (user.changeProject;
// the IDE refuses an empty name or a URL that is not absolute http(s), with a warning in the
// log, and the field shows the IDE's value again), then healing and the recording settings.
// A field is sent when committed (Enter or leaving it); Escape puts back the IDE's value.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";

function ProjectField({ label, value, field, testId, send }: { label: string; value: string; field: "name" | "url"; testId: string; send: (event: UserEventMessage) => void }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = value;
  }, [value]);
  const commit = () => {
    const typed = input.current?.value ?? "";
    if (typed !== value) send({ type: "user.changeProject", [field]: field === "url" ? typed.trim() : typed });
  };
  return (
    <label class="field">
      {label}
      <input
        ref={input}
        type="text"
        inputMode={field === "url" ? "url" : undefined}
        data-testid={testId}
        defaultValue={value}
        spellcheck={false}
        onChange={commit}
        onBlur={() => {
          if (input.current) input.current.value = value;
        }}
        onKeyDown={(event) => {
          if (event.key === "Enter") commit();
          else if (event.key === "Escape" && input.current) input.current.value = value;
        }}
      />
    </label>
  );
}

export function ProjectSettings({ name, url, send, children }: { name: string; url: string; send: (event: UserEventMessage) => void; children?: ComponentChildren }) {
  return (
    <section class="side-section" aria-labelledby="project-settings-heading" data-testid="project-settings">
      <h2 id="project-settings-heading">Project</h2>
      <ProjectField label="Project name" value={name} field="name" testId="project-name-field" send={send} />
      <ProjectField label="Base URL" value={url} field="url" testId="project-url-field" send={send} />
      {children}
    </section>
  );
}
