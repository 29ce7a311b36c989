// The targets of the commands the extension plays itself, outside the page (the window's
// setWindowSize, selectFrame): read from their text. Pure.

/** setWindowSize's target, Selenium's "WIDTHxHEIGHT". */
export function parseWindowSize(text: string): { width: number; height: number } | null {
  const match = /^\s*(\d{1,5})\s*x\s*(\d{1,5})\s*$/i.exec(text);
  if (!match) return null;
  const [width, height] = [Number(match[1]), Number(match[2])];
  return width > 0 && height > 0 ? { width, height } : null;
}

/**
 * selectFrame's target: top, parent, a path of indexes (`index=0`, Selenium's `index=1\\..\\0`
 * with `..` for the parent), or a locator of a frame element in the selected frame.
 */
export type FrameTarget =
  | { kind: "top" }
  | { kind: "parent" }
  | { kind: "index"; steps: Array<number | ".."> }
  | { kind: "locator"; location: string };

export function parseFrameTarget(text: string): FrameTarget | { kind: "invalid"; message: string } {
  if (text === "relative=top") return { kind: "top" };
  if (text === "relative=parent") return { kind: "parent" };
  if (text.startsWith("index=")) {
    const steps: Array<number | ".."> = [];
    for (const part of text.slice("index=".length).split("\\")) {
      if (part === "..") steps.push("..");
      else if (/^\d+$/.test(part.trim())) steps.push(Number(part.trim()));
      else return { kind: "invalid", message: `selectFrame: "${text}" is not a frame index (index=0, index=1\\..\\0).` };
    }
    return { kind: "index", steps };
  }
  if (text.trim() === "") return { kind: "invalid", message: "selectFrame needs a target: relative=top, relative=parent, index=N or a locator of a frame." };
  return { kind: "locator", location: text };
}

/** Where a path of frame indexes leads from `from` (the indexes from the top frame down). */
export function followFrameSteps(from: readonly number[], steps: ReadonlyArray<number | "..">): number[] {
  const path = [...from];
  for (const step of steps) {
    if (step === "..") path.pop();
    else path.push(step);
  }
  return path;
}
