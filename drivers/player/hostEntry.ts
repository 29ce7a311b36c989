// The one player as the host puts it into its page under test (bundled for the browser, not for
// Node): put by drivers/host/devtoolsPlayer.ts into an isolated world of every document of the
// window under test, it runs one page command at a time with the in-page commands (index.ts)
// and asks for trusted input through a binding that only this world has; the host sends the
// input events over DevTools and answers with `inputDone`. Each wait here has a limit.
import { runInPage } from "./index.ts";
import type { InPageAnswer, InPageRequest, InputEvent, TrustedInput } from "./index.ts";
import { INPUT_BINDING, INPUT_LIMIT_MS, PLAYER_GLOBAL } from "./hostNames.ts";

interface Waiting {
  resolve(): void;
  reject(error: Error): void;
}

const waiting = new Map<number, Waiting>();
let nextInput = 0;
let running: AbortController | null = null;

const binding = (globalThis as unknown as Record<string, ((payload: string) => void) | undefined>)[INPUT_BINDING];

const input: TrustedInput = {
  send(events: InputEvent[]) {
    const id = ++nextInput;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`the browser did not take the input within ${INPUT_LIMIT_MS} ms`));
      }, INPUT_LIMIT_MS);
      waiting.set(id, {
        resolve: () => (clearTimeout(timer), resolve()),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      binding!(JSON.stringify({ id, events }));
    });
  },
  // The host plays in the top document only (a selected frame goes through WebDriver).
  offset: (win) => (win === win.top ? { x: 0, y: 0 } : null),
};

/** Resolves when the document has loaded (WebDriver's normal page load), or after `limitMs`. */
function loaded(limitMs: number): Promise<void> {
  if (document.readyState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => (clearTimeout(timer), window.removeEventListener("load", done), resolve());
    const timer = setTimeout(done, limitMs);
    window.addEventListener("load", done);
  });
}

const player = {
  /** One command; a command still running is let go first. */
  async run(request: InPageRequest, loadLimitMs: number): Promise<InPageAnswer> {
    running?.abort();
    const controller = new AbortController();
    running = controller;
    try {
      await loaded(loadLimitMs);
      return await runInPage(window, request, controller.signal, binding ? input : undefined);
    } finally {
      if (running === controller) running = null;
    }
  },
  abort() {
    running?.abort();
  },
  inputDone(id: number, error: string | null) {
    const entry = waiting.get(id);
    waiting.delete(id);
    if (error === null) entry?.resolve();
    else entry?.reject(new Error(error));
  },
};

(globalThis as unknown as Record<string, unknown>)[PLAYER_GLOBAL] = player;
