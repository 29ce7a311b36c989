/// <reference types="chrome" />
// selectFrame in the tab under test: which frame the run's page commands go to. Frames are
// known by their index path from the top frame (`[1, 0]`: the first frame inside the second),
// which every frame can tell about itself (scripts.ts: framePaths), and chrome's APIs take a
// frameId: index=N and relative=parent follow the path; a locator asks the selected frame's
// content script which of its frames the element is. A frame just added may have no document
// yet: it is looked for until the implicit wait.
import type { PageOutcome } from "../../machines/testRunner.types.ts";
import { followFrameSteps, parseFrameTarget } from "./commandText.ts";
import { readFrameLocateAnswer } from "./messages.ts";
import type { FrameLocateMessage } from "./messages.ts";
import { abortable, FRAME_GONE, pageGone, settled } from "./navigation.ts";
import { framePaths } from "./scripts.ts";
import { askContentScript, isNoFrame, isPortClosed } from "./tabs.ts";
import type { TabTarget } from "./tabs.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const failed = (message: string): PageOutcome => ({ state: "failed", message });

/** Selects the frame `text` names (changing `target.frameId`), or says why not; rejects when the page is gone. */
export async function selectFrame(
  target: TabTarget,
  text: string,
  limits: { implicitWaitMs: number; loadTimeoutMs: number },
  signal: AbortSignal,
): Promise<PageOutcome> {
  const { implicitWaitMs, loadTimeoutMs } = limits;
  const parsed = parseFrameTarget(text);
  if (parsed.kind === "invalid") return failed(parsed.message);
  if (parsed.kind === "top") {
    target.frameId = 0;
    return { state: "passed" };
  }
  await settled(target.tabId, loadTimeoutMs, signal);
  let paths: Awaited<ReturnType<typeof framePaths>>;
  try {
    paths = await framePaths(target.tabId);
  } catch (error) {
    throw await pageGone(target, error);
  }
  const here = paths.find((p) => p.frameId === target.frameId)?.path;
  if (!here) return failed(FRAME_GONE);
  let wanted: number[];
  if (parsed.kind === "parent") wanted = here.slice(0, -1);
  else if (parsed.kind === "index") wanted = followFrameSteps(here, parsed.steps);
  else {
    const message: FrameLocateMessage = { type: "frame.locate", location: parsed.location, implicitWaitMs };
    let located;
    try {
      located = readFrameLocateAnswer(await abortable(askContentScript<unknown>(target, message), signal, () => {}));
    } catch (error) {
      if (signal.aborted) throw error;
      if (isNoFrame(error)) return failed(FRAME_GONE);
      if (isPortClosed(error)) return failed(`selectFrame ${text}: the frame navigated while its element was looked for.`);
      throw await pageGone(target, error);
    }
    if (!located) return failed(`selectFrame ${text}: the tab under test gave no usable answer.`);
    if (!located.ok) return failed(located.error);
    wanted = [...here, located.index];
  }
  // A frame just added may not have a document yet: it is looked for until the implicit wait.
  const deadline = Date.now() + implicitWaitMs;
  for (;;) {
    const found = paths.find((p) => p.path.length === wanted.length && p.path.every((step, i) => step === wanted[i]));
    if (found) {
      target.frameId = found.frameId;
      return { state: "passed" };
    }
    if (Date.now() > deadline || signal.aborted) return failed(`selectFrame ${text}: no such frame.`);
    await sleep(100);
    try {
      paths = await framePaths(target.tabId);
    } catch (error) {
      throw await pageGone(target, error);
    }
  }
}
