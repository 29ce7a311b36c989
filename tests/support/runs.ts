// Waiting for a run the test starts: the view's `playback` of a new run, once it has ended.
import { expect, vi } from "vitest";
import type { Ide, IdeView, UserEventInput } from "../../index.ts";

/** Sends `start` and resolves with the new run's view once it ended (another runId, status ended). */
export async function playAndWait(ide: Ide, start: UserEventInput, timeout = 60_000): Promise<NonNullable<IdeView["playback"]>> {
  const before = ide.getSnapshot().playback?.runId ?? null;
  ide.send(start);
  await vi.waitFor(
    () => {
      const playback = ide.getSnapshot().playback;
      expect(playback?.runId).not.toBe(before);
      expect(playback?.status).toBe("ended");
    },
    { timeout, interval: 50 },
  );
  return ide.getSnapshot().playback!;
}
