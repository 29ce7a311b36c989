// Whether a command started a navigation of its document (issue 27): a form it submitted, a link
// it followed, Enter in a form, a script its click ran that set `location`. The player cannot
// wait for the next document from inside this one, so its answer says so (`navigating: true`)
// and the caller, which outlives the document (devtoolsPlayer.ts in the host, tabPage.ts in the
// extension), waits for the navigation to end before the next command.
//
// The signal is the Navigation API's "navigate" event (Chromium 102+), which fires on the
// document's `navigation` object when any navigation of this frame starts: a link, a form post,
// a script's `location` change, in the page's world and in isolated worlds alike. Only
// cross-document navigations count (a hash change or an intercepted same-document one replaces
// nothing), nor a download, nor one a page's listener cancelled or intercepted. A form
// submission is planned in a task of its own after the click's handler: when the command sent a
// form (a `submit` event the page did not cancel), the watch waits for that navigation to start,
// at most SUBMIT_WAIT_MS; other commands are not held (waiting even one task costs a frame, about
// 16 ms a command). A form sent by script (`form.submit()`, no submit event) is left to the
// callers' own signals.
// Without the API (an older browser) nothing is seen and the callers' own signals (DevTools'
// loading events, the tab's status) still hold.

interface NavigateEventLike extends Event {
  destination?: { sameDocument?: boolean };
  hashChange?: boolean;
  downloadRequest?: string | null;
}

interface NavigationLike extends EventTarget {
  currentEntry?: unknown;
  transition?: unknown;
}

export interface NavigationWatch {
  /** Whether a cross-document navigation started since the watch began and was not cancelled. */
  started(): boolean;
  /** Waits for the navigation of a form the command sent to start (planned in a task of its own), then stops watching. */
  settle(): Promise<void>;
  stop(): void;
}

/** How long a sent form's navigation may take to start (it is planned in a task of its own). */
const SUBMIT_WAIT_MS = 200;

const NOTHING: NavigationWatch = { started: () => false, settle: () => Promise.resolve(), stop: () => {} };

/** Watches `win`'s own navigations from now on. */
export function watchNavigation(win: Window): NavigationWatch {
  const navigation = (win as Window & { navigation?: NavigationLike }).navigation;
  if (!navigation || typeof navigation.addEventListener !== "function") return NOTHING;
  const seen: { event: NavigateEventLike; entry: unknown }[] = [];
  const submits: Event[] = [];
  let heard: (() => void) | null = null;
  const onNavigate = (event: Event) => {
    const navigate = event as NavigateEventLike;
    if (navigate.destination?.sameDocument === true || navigate.hashChange === true) return;
    if (typeof navigate.downloadRequest === "string") return;
    seen.push({ event: navigate, entry: navigation.currentEntry });
    heard?.();
  };
  const onSubmit = (event: Event) => submits.push(event);
  navigation.addEventListener("navigate", onNavigate);
  win.addEventListener("submit", onSubmit, true);
  const stop = () => {
    navigation.removeEventListener("navigate", onNavigate);
    win.removeEventListener("submit", onSubmit, true);
  };
  return {
    // Read after the event's listeners ran, so a page that cancelled it is heard, and one that
    // intercepted it (a single-page app's router: the document stays, its entry changes at once
    // or a transition runs) is not taken for a new document.
    started: () => navigation.transition == null && seen.some(({ event, entry }) => !event.defaultPrevented && navigation.currentEntry === entry),
    async settle() {
      // Only a form sent and not cancelled plans a navigation for later; anything else has
      // started its navigation by now. Waiting a task for nothing costs a frame a command.
      if (seen.length === 0 && submits.some((event) => !event.defaultPrevented)) {
        await new Promise<void>((resolve) => {
          const timer = win.setTimeout(resolve, SUBMIT_WAIT_MS);
          heard = () => {
            win.clearTimeout(timer);
            resolve();
          };
        });
      }
      stop();
    },
    stop,
  };
}
