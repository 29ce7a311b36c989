// Whether a command started a navigation of its document (issue 27): a form it submitted, a link
// it followed, Enter in a form, a script its click ran that set `location`. The player cannot
// wait for the next document from inside this one, so its answer says so (`navigating: true`)
// and the caller, which outlives the document (devtoolsPlayer.ts in the host, executor.ts in the
// extension), waits for the navigation to end before the next command.
//
// The signal is the Navigation API's "navigate" event (Chromium 102+), which fires on the
// document's `navigation` object when any navigation of this frame starts: a link, a form post,
// a script's `location` change, in the page's world and in isolated worlds alike. Only
// cross-document navigations count (a hash change or an intercepted same-document one replaces
// nothing), nor a download, nor one a page's listener cancelled. A form submission is planned
// in a task of its own after the click's handler, so the watch lasts one more task after the
// command's input. Without the API (an older browser) nothing is seen and the callers' own
// signals (DevTools' loading events, the tab's status) still hold.

interface NavigateEventLike extends Event {
  destination?: { sameDocument?: boolean };
  hashChange?: boolean;
  downloadRequest?: string | null;
}

export interface NavigationWatch {
  /** Whether a cross-document navigation started since the watch began and was not cancelled. */
  started(): boolean;
  /** Lets one more task run (a planned form submission), then stops watching. */
  settle(): Promise<void>;
  stop(): void;
}

const NOTHING: NavigationWatch = { started: () => false, settle: () => Promise.resolve(), stop: () => {} };

/** Watches `win`'s own navigations from now on. */
export function watchNavigation(win: Window): NavigationWatch {
  const navigation = (win as Window & { navigation?: EventTarget }).navigation;
  if (!navigation || typeof navigation.addEventListener !== "function") return NOTHING;
  const seen: NavigateEventLike[] = [];
  const onNavigate = (event: Event) => {
    const navigate = event as NavigateEventLike;
    if (navigate.destination?.sameDocument === true || navigate.hashChange === true) return;
    if (typeof navigate.downloadRequest === "string") return;
    seen.push(navigate);
  };
  navigation.addEventListener("navigate", onNavigate);
  const stop = () => navigation.removeEventListener("navigate", onNavigate);
  return {
    // Read after the event's listeners ran, so a page that called preventDefault is heard.
    started: () => seen.some((event) => !event.defaultPrevented),
    async settle() {
      await new Promise((resolve) => win.setTimeout(resolve, 0));
      stop();
    },
    stop,
  };
}
