// The live line on a terminal (CONTRACT section 22): `12/40 played, 1 failed, about 30 s left`,
// kept below the tests' lines and rewritten in place; in a pipe or a file nothing of it is
// written, so a CI log has the lines it always had.
import type { TestEnded } from "../../core/testEnds.ts";

export interface Progress {
  played: number;
  total: number;
  failed: number;
  elapsedMs: number;
}

/** The line: played/total, failures, and the time left at the pace so far (once a test has ended). */
export function progressLine({ played, total, failed, elapsedMs }: Progress): string {
  const head = `${played}/${total} played, ${failed} failed`;
  if (played === 0 || played >= total) return head;
  const leftS = Math.ceil(((elapsedMs / played) * (total - played)) / 1000);
  return `${head}, about ${leftS < 90 ? `${leftS} s` : `${Math.round(leftS / 60)} min`} left`;
}

/** Whether this try is the test's last: it passed or was stopped, or no retry is left for it. */
export const isLastTry = (ended: TestEnded, retries: number) => ended.result === "passed" || ended.result === "stopped" || ended.tryNo > retries;

export interface LiveLine {
  /** Writes the lines above the live line, then the live line again. */
  lines(lines: readonly string[]): void;
  /** A test's last try ended. */
  ended(failed: boolean): void;
  /** Removes the live line for good (before the summary). */
  close(): void;
}

/**
 * Counts tests as they end and keeps the line below the output on a terminal (redrawn each
 * second, so the time left moves); without a terminal it only passes the lines on.
 */
export function liveLine(total: number, out: (line: string) => void, terminal: NodeJS.WriteStream | null): LiveLine {
  const started = Date.now();
  let played = 0;
  let failed = 0;
  let shown = false;
  const text = () => progressLine({ played, total, failed, elapsedMs: Date.now() - started });
  const clear = () => {
    if (shown) terminal?.write("\r\x1b[2K");
    shown = false;
  };
  const draw = () => {
    if (!terminal) return;
    clear();
    terminal.write(text());
    shown = true;
  };
  const timer = terminal ? setInterval(draw, 1000) : null;
  timer?.unref();
  draw();
  return {
    lines(lines) {
      clear();
      for (const line of lines) out(line);
      draw();
    },
    ended(didFail) {
      played += 1;
      if (didFail) failed += 1;
      draw();
    },
    close() {
      if (timer) clearInterval(timer);
      clear();
    },
  };
}
