// The page under test as the host shows it (the `page` message of drivers/view/messages.ts):
// live, a frame each time the page changes (DevTools' screencast), or, where the host cannot
// reach the browser's DevTools, a still picture after each page command, which the panel says;
// with its URL and title, so the user sees what a run does in a browser they cannot see, and
// whether that browser is gone. The URL and title come from the page under test, so they are
// shown as text; the URL is a link only when it is http or https.
// Where the page takes input (the host's), the picture is a page the user can use: a click or a
// double click on it, typing and the keys Selenium IDE records (Enter, Tab, the arrows, ...)
// while it has the focus are done in the page under test, so a person can record there. The
// picture fits the panel, or ("Actual size") is shown at the page's own size in CSS pixels (its
// text as readable as in a browser) in a view that scrolls; "Fit" goes back. A click maps to the
// page's point by the picture's shown box, whatever its size.
// The mouse wheel over the picture scrolls the page under test (what is under the pointer, as a
// wheel there would), in "Fit" and in "Actual size" alike; the panel's own view (at actual size)
// scrolls with its scrollbars. Turns come fast, so the panel sends at most one every
// WHEEL_SEND_MS, the turns between added up (the host merges any that still wait: relay.ts).
// While recording, a toolbar of checks (CONTRACT section 21): pressing one arms a pick in the
// page, and the next click on the picture records that check for the element clicked instead of
// the click (the page does not get it); the element is outlined in the page as the pointer moves
// there. Esc on the picture, or Cancel, gives the pick up.
import { useEffect, useRef, useState } from "preact/hooks";
import type { PageInput, PageShot, UiView, UserEventMessage } from "../protocol.ts";

/** The checks, as CONTRACT section 21 names them (services/recording/checks.ts holds the same list for the core). */
const CHECKS = [
  ["assertText", "Assert text"],
  ["assertValue", "Assert value"],
  ["assertTitle", "Assert title"],
  ["assertElementPresent", "Assert element present"],
  ["assertChecked", "Assert checked"],
  ["storeText", "Store text"],
  ["storeValue", "Store value"],
  ["waitForElementVisible", "Wait for element visible"],
] as const;

/** The checks' toolbar, while recording: the pressed one is armed in the page. */
function CheckTools({ pick, send }: { pick: UiView["pick"]; send: (event: UserEventMessage) => void }) {
  const armed = pick?.kind === "check" ? pick.command : null;
  return (
    <div class="page-checks" role="toolbar" aria-label="Checks" data-testid="page-checks">
      {CHECKS.map(([command, label]) => (
        <button
          key={command}
          type="button"
          aria-pressed={armed === command}
          title={`${label}: then click the element on the page`}
          onClick={() => send(armed === command ? { type: "user.cancelPick" } : { type: "user.pickCheck", command })}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

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

/** The keys the page takes besides text (drivers/host/recording.ts names the same). */
const KEYS = new Set(["Enter", "Tab", "Backspace", "Escape", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]);

/** The point of the page's viewport, in CSS pixels, under a point of its picture. */
function pagePoint(event: MouseEvent, page: PageShot): { x: number; y: number } {
  const image = event.currentTarget as HTMLImageElement;
  const box = image.getBoundingClientRect();
  const width = page.width ?? image.naturalWidth;
  const height = page.height ?? image.naturalHeight;
  return { x: Math.round(((event.clientX - box.left) / box.width) * width), y: Math.round(((event.clientY - box.top) / box.height) * height) };
}

/** At most one wheel message this often; the turns between are added up. */
const WHEEL_SEND_MS = 50;
/** A wheel's deltas in CSS pixels, whatever unit the browser gave them in (pixels, lines or pages). */
function wheelPixels(event: WheelEvent, pageHeight: number): { deltaX: number; deltaY: number } {
  const unit = event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? pageHeight : 1;
  return { deltaX: event.deltaX * unit, deltaY: event.deltaY * unit };
}

/** What the panel says of the picture: live, still (and why), or the browser gone. */
function status(page: PageShot): string {
  if (page.gone) return `The browser is gone: this is the last picture of its page, from ${time(page.at)}.`;
  if (page.live === true) return "Live: the page as it is now.";
  if (page.live === false) return `Still pictures after each page command (the browser's DevTools cannot be reached from the host); captured at ${time(page.at)}.`;
  return `Captured at ${time(page.at)}`;
}

export function PagePanel({
  page,
  onInput,
  recording = false,
  pick = null,
  send,
}: {
  page: PageShot | null;
  onInput?: ((input: PageInput) => void) | null;
  recording?: boolean;
  pick?: UiView["pick"];
  send?: (event: UserEventMessage) => void;
}) {
  const usable = Boolean(onInput);
  // Fit to the panel, or the page's own size in a view that scrolls.
  const [actual, setActual] = useState(true);
  // The second click of a double click says so (the page then fires dblclick).
  const click = (event: MouseEvent) => {
    if (!onInput || !page) return;
    onInput({ kind: "click", ...pagePoint(event, page), ...(event.detail === 2 ? { double: true } : {}) });
  };
  const key = (event: KeyboardEvent) => {
    if (!onInput || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key.length === 1) onInput({ kind: "type", text: event.key });
    else if (KEYS.has(event.key)) onInput({ kind: "key", key: event.key });
    else return;
    event.preventDefault();
  };
  // The wheel's turns not sent yet (added up), and the timer that sends them.
  const wheel = useRef<{ pending: Extract<PageInput, { kind: "wheel" }> | null; timer: ReturnType<typeof setTimeout> | null }>({ pending: null, timer: null });
  useEffect(() => () => void (wheel.current.timer !== null && clearTimeout(wheel.current.timer)), []);
  const sendWheel = () => {
    const state = wheel.current;
    state.timer = null;
    if (!state.pending || !onInput) return;
    onInput(state.pending);
    state.pending = null;
    state.timer = setTimeout(sendWheel, WHEEL_SEND_MS);
  };
  const turn = (event: WheelEvent) => {
    if (!onInput || !page || event.ctrlKey) return;
    event.preventDefault();
    const { deltaX, deltaY } = wheelPixels(event, page.height ?? (event.currentTarget as HTMLImageElement).naturalHeight);
    const state = wheel.current;
    const before = state.pending;
    state.pending = { kind: "wheel", ...pagePoint(event, page), deltaX: (before?.deltaX ?? 0) + deltaX, deltaY: (before?.deltaY ?? 0) + deltaY };
    if (state.timer === null) sendWheel();
  };
  const sized = page?.width !== undefined && page.height !== undefined;
  return (
    <section class="panel page-panel" aria-labelledby="page-heading" data-testid="page-under-test">
      <h2 id="page-heading">Page under test</h2>
      {recording && usable && send && <CheckTools pick={pick} send={send} />}
      {pick !== null && send && (
        <p class="hint page-picking" role="status" data-testid="page-picking">
          {pick.kind === "check" ? "Click the element to check on the page" : "Click the element the command should target on the page"}; Esc cancels.{" "}
          <button type="button" onClick={() => send({ type: "user.cancelPick" })}>
            Cancel
          </button>
        </p>
      )}
      {page === null ? (
        <p class="empty" data-testid="page-empty">
          Nothing to show yet: the page appears here after a run's first page command, or when you press Record.
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
          <p class={page.gone ? "hint page-at page-gone" : "hint page-at"} data-testid="page-status">
            {status(page)}
          </p>
          {page.image !== null && page.image.startsWith(IMAGE_PREFIX) ? (
            <>
              <p class="page-tools">
                <button type="button" onClick={() => setActual(!actual)} data-testid="page-size">
                  {actual ? "Fit" : "Actual size"}
                </button>
              </p>
              <div class={actual ? "page-view actual" : "page-view fit"} data-testid="page-view">
                <img
                  class={usable ? "page-image usable" : "page-image"}
                  data-testid="page-image"
                  src={page.image}
                  alt={`The page under test: ${page.title || page.url}`}
                  {...(sized ? { width: page.width, height: page.height } : {})}
                  {...(usable
                    ? {
                        tabIndex: 0,
                        title: "Click, double click, type and scroll here: it happens in the page under test (and is recorded while recording)",
                        onClick: click,
                        onWheel: turn,
                        onKeyDown: key,
                      }
                    : {})}
                />
              </div>
            </>
          ) : (
            <p class="empty">The browser gave no picture of this page.</p>
          )}
        </>
      )}
    </section>
  );
}
