// The page under test as the host last captured it (the `page` message of
// drivers/view/messages.ts): a small picture of its viewport, its URL and its title, so the
// user sees what a run does in a browser they cannot see. The URL and title come from the
// page under test, so they are shown as text; the URL is a link only when it is http or https.
import type { PageShot } from "../protocol.ts";

const IMAGE_PREFIX = "data:image/jpeg;base64,";

function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

function time(at: number): string {
  const d = new Date(at);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}

export function PagePanel({ page }: { page: PageShot | null }) {
  return (
    <section class="panel page-panel" aria-labelledby="page-heading" data-testid="page-under-test">
      <h2 id="page-heading">Page under test</h2>
      {page === null ? (
        <p class="empty" data-testid="page-empty">
          Nothing to show yet: the page appears here after a run's first page command.
        </p>
      ) : (
        <>
          <p class="page-title" data-testid="page-title">
            {page.title === "" ? <span class="empty">(no title)</span> : page.title}
          </p>
          <p class="page-url">
            {isWebUrl(page.url) ? (
              <a href={page.url} target="_blank" rel="noopener noreferrer" data-testid="page-url">
                {page.url}
              </a>
            ) : (
              <code data-testid="page-url">{page.url}</code>
            )}
          </p>
          {page.image !== null && page.image.startsWith(IMAGE_PREFIX) ? (
            <img class="page-image" data-testid="page-image" src={page.image} alt={`The page under test: ${page.title || page.url}`} />
          ) : (
            <p class="empty">The browser gave no picture of this page.</p>
          )}
          <p class="hint page-at">Captured at {time(page.at)}</p>
        </>
      )}
    </section>
  );
}
