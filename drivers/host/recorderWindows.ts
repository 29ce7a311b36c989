// The windows the host's recorder is in (CONTRACT sections 14 and 19): the recorder (recording.ts)
// has a DevTools session of its own in each page (tab or window) of the browser it records,
// put there the first time that page is needed (the window WebDriver drives when the recorder
// starts, the one the user's input goes to) or, while a recording is under way, as soon as a
// page it is in opens another (`Target.targetCreated` with an `openerId`, heard through the
// browser's target discovery). Each page gets a number of its own below 0 (-1, -2, ...), the
// `tabId` the core's recording machine keys windows by as it keys the extension's tabs by their
// ids; plugins are told null for it, the host's pages having no browser tab id
// (services/recording/windows.ts).
//
// While a recording is under way the WebDriver session follows the recording, as the user
// following a new tab would: the core hears that a page opened another (recorder.windowOpened,
// a moment after, so the click that opened it is recorded first), then WebDriver switches to
// the new window, so the page panel's picture (devtools.ts) shows it (taken again as each page
// loads there) and the user's input goes there; when a page closes the core hears it
// (recorder.windowClosed) and, if it was the window WebDriver drives, WebDriver goes back to
// the page that opened it (else to another the recorder is in). Outside a recording nothing is
// followed, so a run's own windows are left to the run. What the browser tells is read with
// zod; every wait has a limit; a page gone meanwhile is simply forgotten.
import type { WebDriver } from "selenium-webdriver";
import { z } from "zod";
import { withTimeout } from "../../services/timeout.ts";
import type { DevToolsConnection } from "./devtoolsConnection.ts";

/** How long after a page opened from a recorded one the core hears of it (the opening click first), as the extension waits. */
export const OPENED_DELAY_MS = 150;
/** One WebDriver call to switch windows or ask which one it drives. */
const SWITCH_TIMEOUT_MS = 10_000;

export interface RecorderWindowHooks {
  /** Puts the recorder into a page through its new session. */
  setUp(sessionId: string): Promise<void>;
  /** What the core hears (recorder.windowOpened and recorder.windowClosed). */
  report(value: unknown): void;
  /** Whether a recording is under way: only then are new windows followed. */
  following(): boolean;
  /** WebDriver now drives another window, or the page of a window it followed loaded: the picture should be taken again. */
  switched(): void;
}

interface RecordedPage {
  tabId: number;
  /** The page that opened this one, if it is one the recorder is in. */
  opener: string | null;
  session: Promise<string>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** What the browser tells of a page opening and closing, as read here. */
const Created = z.object({ targetInfo: z.object({ targetId: z.string(), type: z.string(), openerId: z.string().optional() }) });
const Destroyed = z.object({ targetId: z.string() });

/** The recorder's sessions in the pages of one browser, by the page's target id (its WebDriver window handle). */
export class RecorderWindows {
  private readonly pages = new Map<string, RecordedPage>();
  private readonly bySession = new Map<string, number>();
  private numbered = 0;
  /** The recorder's session in the window WebDriver was last switched to. */
  private followed: string | null = null;
  private readonly stopListening: () => void;
  private closed = false;

  constructor(
    private readonly devtools: DevToolsConnection,
    private readonly driver: WebDriver,
    private readonly hooks: RecorderWindowHooks,
    private readonly timeoutMs: number,
  ) {
    this.stopListening = devtools.listen((method, params, from) => {
      // A window WebDriver followed may still have been loading when the picture was taken.
      if (method === "Page.loadEventFired" && from !== undefined && from === this.followed && this.hooks.following()) this.hooks.switched();
      if (from !== undefined) return;
      if (method === "Target.targetCreated") {
        const created = Created.safeParse(params);
        if (created.success) this.created(created.data.targetInfo);
      } else if (method === "Target.targetDestroyed") {
        const destroyed = Destroyed.safeParse(params);
        if (destroyed.success) void this.destroyed(destroyed.data.targetId);
      }
    });
  }

  /** Starts hearing of the browser's pages as they open and close (discovery stays on: the connection is shared). */
  async discover(): Promise<void> {
    await this.devtools.send("Target.setDiscoverTargets", { discover: true }, undefined, this.timeoutMs);
  }

  /** The recorder's session in page `targetId`, put there now if it is not yet. */
  sessionOf(targetId: string, opener: string | null = null): Promise<string> {
    const known = this.pages.get(targetId);
    if (known) return known.session;
    this.numbered += 1;
    const tabId = -this.numbered;
    const session = (async () => {
      const sessionId = await this.devtools.attach(targetId, this.timeoutMs);
      this.bySession.set(sessionId, tabId);
      try {
        await this.hooks.setUp(sessionId);
      } catch (error) {
        this.devtools.send("Target.detachFromTarget", { sessionId }).catch(() => {});
        throw error;
      }
      return sessionId;
    })();
    const page = { tabId, opener, session };
    this.pages.set(targetId, page);
    session.catch(() => {
      if (this.pages.get(targetId) === page) this.pages.delete(targetId);
    });
    return session;
  }

  /** The number of page `targetId` (the recorder is put there if need be); null once it closed. */
  async tabIdOf(targetId: string): Promise<number | null> {
    await this.sessionOf(targetId);
    return this.pages.get(targetId)?.tabId ?? null;
  }

  /** The number of the page a recorder's session is in, or undefined when it is not one of the recorder's. */
  tabIdOfSession(sessionId: string | undefined): number | undefined {
    return sessionId === undefined ? undefined : this.bySession.get(sessionId);
  }

  /** The window WebDriver drives now (as the picture is taken of it): the only page, or the one WebDriver names. */
  async driven(): Promise<string> {
    const open = await this.devtools.pages();
    if (open.length === 1) return open[0]!.targetId;
    return withTimeout(this.driver.getWindowHandle(), SWITCH_TIMEOUT_MS, "the window WebDriver drives");
  }

  /** A page opened: while recording, one a recorded page opened gets the recorder, the core hears of it, and WebDriver goes there. */
  private created({ targetId, type, openerId: opener }: z.infer<typeof Created>["targetInfo"]) {
    if (this.closed || opener === undefined || type !== "page") return;
    if (!this.hooks.following() || !this.pages.has(opener) || this.pages.has(targetId)) return;
    const session = this.sessionOf(targetId, opener);
    void Promise.all([session, sleep(OPENED_DELAY_MS)]).then(
      async () => {
        const page = this.pages.get(targetId);
        const from = this.pages.get(opener);
        if (this.closed || !page || !from || !this.hooks.following()) return;
        this.hooks.report({ type: "recorder.windowOpened", tabId: page.tabId, openerTabId: from.tabId });
        await this.switchTo(targetId);
      },
      () => {}, // closed before the recorder got in: nothing to follow
    );
  }

  /** A page closed: the core hears of it while recording, and WebDriver leaves it if it drove it. */
  private async destroyed(targetId: string) {
    const page = this.pages.get(targetId);
    if (!page) return;
    this.pages.delete(targetId);
    void page.session.then((sessionId) => this.bySession.delete(sessionId), () => {});
    if (this.closed || !this.hooks.following()) return;
    this.hooks.report({ type: "recorder.windowClosed", tabId: page.tabId });
    // WebDriver answers "no such window" once the window it drove is gone.
    const now = await withTimeout(this.driver.getWindowHandle(), SWITCH_TIMEOUT_MS, "the window WebDriver drives").catch(() => null);
    if (now !== null && now !== targetId) return;
    const open = new Set((await this.devtools.pages().catch(() => [])).map((t) => t.targetId));
    const back = [page.opener, ...this.pages.keys()].find((id) => id !== null && open.has(id));
    if (back) await this.switchTo(back);
  }

  private async switchTo(targetId: string) {
    this.followed = (await this.pages.get(targetId)?.session.catch(() => null)) ?? null;
    try {
      await withTimeout(this.driver.switchTo().window(targetId), SWITCH_TIMEOUT_MS, "switching WebDriver's window");
    } catch {
      return; // the window closed meanwhile: its close is heard too
    }
    this.hooks.switched();
  }

  /** The recorder leaves every page (its script and binding go with its sessions). */
  close() {
    this.closed = true;
    this.stopListening();
    for (const page of this.pages.values()) {
      void page.session.then((sessionId) => this.devtools.send("Target.detachFromTarget", { sessionId }), () => {}).catch(() => {});
    }
    this.pages.clear();
    this.bySession.clear();
  }
}
