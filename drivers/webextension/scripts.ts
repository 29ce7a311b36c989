/// <reference types="chrome" />
// Scripts of a run in the page's own world ("MAIN", as WebDriver's executeScript runs them):
// executeScript, executeAsyncScript and runScript, and the conditions of if, elseIf, while and
// repeatIf. The script is the .side file's text with each `${name}` turned into `arguments[i]`
// (Selenium's interpolateScript), so variables reach it as values, never as code. The page's
// own Content-Security-Policy applies: a page that forbids eval cannot run them (the error
// says so).
import type { TabTarget } from "./tabs.ts";

export type ScriptMode = "sync" | "async" | "condition";
export type ScriptResult = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Runs in the page (serialised by Chromium, so it must use nothing from outside itself).
 * sync: a function body (`return 1 + 1`), as WebDriver's executeScript; async: a promise, as
 * an expression (`new Promise(...)`, Selenium IDE's form) or a body that returns one;
 * condition: an expression, true or false. Values come back as JSON (an element as `{}`).
 */
function runInMainWorld(script: string, argv: unknown[], mode: ScriptMode, timeoutMs: number): ScriptResult | Promise<ScriptResult> {
  const describe = (error: unknown) =>
    error instanceof Error ? `${error.name}: ${error.message}` : typeof error === "string" ? error : JSON.stringify(error) ?? String(error);
  const plain = (value: unknown) => {
    if (value === undefined) return null;
    try {
      const text = JSON.stringify(value);
      return text === undefined ? null : JSON.parse(text);
    } catch {
      return String(value);
    }
  };
  try {
    let fn: (...args: unknown[]) => unknown;
    if (mode === "sync") fn = new Function(script) as typeof fn;
    else {
      try {
        fn = new Function(`return (${script}\n)`) as typeof fn;
      } catch (error) {
        if (mode === "condition" || !(error instanceof SyntaxError)) throw error;
        fn = new Function(script) as typeof fn;
      }
    }
    const result = fn.apply(window, argv);
    if (mode === "condition") return { ok: true, value: !!result };
    if (mode === "sync") return { ok: true, value: plain(result) };
    return new Promise<ScriptResult>((resolve) => {
      const timer = setTimeout(() => resolve({ ok: false, error: `the script's promise did not settle within ${timeoutMs} ms` }), timeoutMs);
      Promise.resolve(result).then(
        (value) => {
          clearTimeout(timer);
          resolve({ ok: true, value: plain(value) });
        },
        (error) => {
          clearTimeout(timer);
          resolve({ ok: false, error: describe(error) });
        },
      );
    });
  } catch (error) {
    return { ok: false, error: describe(error) };
  }
}

/** Runs a script in one frame of the tab, in the page's world. Rejects only with Chromium's reason it could not run there. */
export async function runScript(target: TabTarget, script: string, argv: unknown[], mode: ScriptMode, timeoutMs: number): Promise<ScriptResult> {
  const [injection] = await chrome.scripting.executeScript({
    target: { tabId: target.tabId, frameIds: [target.frameId] },
    world: "MAIN",
    func: runInMainWorld,
    args: [script, argv, mode, timeoutMs],
  });
  const result = injection?.result as ScriptResult | undefined;
  if (!result || typeof result !== "object") return { ok: false, error: "the frame gave no result (it navigated while the script ran)" };
  return result;
}

/**
 * The index path of each frame of the tab from the top frame (`[]` for the top, `[1, 0]` for
 * the first frame inside the second), with its frameId: how index=N and a frame element are
 * turned into the frameId that chrome's APIs take. Runs in the extension's isolated world.
 */
function framePathHere(): number[] | null {
  const path: number[] = [];
  let here: Window = window;
  try {
    while (here !== here.parent) {
      const parent = here.parent;
      let index = -1;
      for (let i = 0; i < parent.frames.length; i++) {
        if (parent.frames[i] === here) {
          index = i;
          break;
        }
      }
      if (index < 0) return null;
      path.unshift(index);
      here = parent;
    }
  } catch {
    return null;
  }
  return path;
}

export async function framePaths(tabId: number): Promise<Array<{ frameId: number; path: number[] }>> {
  const results = await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, func: framePathHere });
  return results.flatMap((r) => (Array.isArray(r.result) ? [{ frameId: r.frameId, path: r.result as number[] }] : []));
}
