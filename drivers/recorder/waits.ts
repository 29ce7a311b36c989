// What the recorder needs to see the user wait for the page (issue 27, docs/recording.md
// "Waits the user made"): when each element came into the document, and when the page's
// requests (fetch and XMLHttpRequest, as the page's resource timing tells them) were answered
// (their response began: a fetch's promise resolves then, before its body has come). An
// element that came after the user's previous action, and after the answer to a request that
// started after that action, is one the user waited for: the recorder puts
// `waitForElementVisible TARGET 30000` before the command that acts on it, so a run waits as
// long as the request may take. Times are the page's own clock (performance.now(), which
// events' timeStamps and resource timing share). It reads the page and never changes it.

/** The limit the recorded waitForElementVisible waits for, in milliseconds. */
export const RECORDED_WAIT_MS = 30_000;

/** The requests kept: the newest, enough for one action's worth of traffic. */
const KEEP_REQUESTS = 200;

export interface AppearanceWatch {
  /** Whether `el` (or an element it is in) came after `since` and after a request that started at or after `since`. */
  cameAfterRequest(el: Element, since: number): boolean;
  stop(): void;
}

interface Request {
  start: number;
  /** When its answer began to come (a fetch's promise resolves then, before the body ends). */
  answered: number;
}

/** The element `node` is in, crossing out of a shadow root to its host. */
function container(node: Element): Element | null {
  if (node.parentElement) return node.parentElement;
  const root = node.getRootNode() as ShadowRoot | Document;
  return "host" in root && root.host ? root.host : null;
}

export function watchAppearances(win: Window): AppearanceWatch {
  const added = new WeakMap<Node, number>();
  const requests: Request[] = [];
  const now = () => win.performance.now();

  const Mutations = (win as unknown as { MutationObserver: typeof MutationObserver }).MutationObserver;
  const mutations = new Mutations((records) => {
    // What the parser adds while the document loads is the page itself, not something waited for.
    if (win.document.readyState === "loading") return;
    const at = now();
    for (const record of records) for (const node of Array.from(record.addedNodes)) if (node.nodeType === 1) added.set(node, at);
  });
  // The document itself: at document start (the host's recorder) it has no element yet.
  mutations.observe(win.document, { childList: true, subtree: true });

  const keep = (entries: PerformanceEntryList) => {
    for (const entry of entries as PerformanceResourceTiming[]) {
      if (entry.initiatorType !== "fetch" && entry.initiatorType !== "xmlhttprequest") continue;
      requests.push({ start: entry.startTime, answered: entry.responseStart || entry.responseEnd || entry.startTime + entry.duration });
    }
    if (requests.length > KEEP_REQUESTS) requests.splice(0, requests.length - KEEP_REQUESTS);
  };
  const Performance = (win as unknown as { PerformanceObserver?: typeof PerformanceObserver }).PerformanceObserver;
  let resources: PerformanceObserver | null = null;
  try {
    resources = Performance ? new Performance((list) => keep(list.getEntries())) : null;
    resources?.observe({ type: "resource", buffered: false });
  } catch {
    resources = null; // a page without resource timing: no request is seen, so no wait is recorded
  }

  return {
    cameAfterRequest(el, since) {
      // A request whose entry is not delivered yet (it ended a moment ago) counts too.
      if (resources) keep(resources.takeRecords());
      let came = -Infinity;
      for (let node: Element | null = el; node; node = container(node)) came = Math.max(came, added.get(node) ?? -Infinity);
      if (came < since) return false;
      return requests.some((request) => request.start >= since && request.answered <= came);
    },
    stop() {
      mutations.disconnect();
      resources?.disconnect();
    },
  };
}
