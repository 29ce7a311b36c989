// The browser session opened ahead for a suite's next test (drivers/host/browserSession.ts
// sessionAhead): opened once, given to one taker, quit when nobody takes it or the page closes.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AHEAD_IDLE_MS, sessionAhead } from "../../drivers/host/browserSession.ts";
import type { Session } from "../../drivers/host/browserSession.ts";

const fakeSession = (name: string) => ({ name }) as unknown as Session;

function opener() {
  const opened: Session[] = [];
  const ended: Session[] = [];
  const ahead = sessionAhead(
    async () => {
      const session = fakeSession(`s${opened.length + 1}`);
      opened.push(session);
      return session;
    },
    async (session) => void ended.push(session),
  );
  return { ahead, opened, ended };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("a session opened ahead", () => {
  it("is opened once however often it is asked for, and given to the first taker only", async () => {
    const { ahead, opened } = opener();
    ahead.open();
    ahead.open();
    const taken = ahead.take();
    expect(taken).not.toBeNull();
    expect(await taken).toBe(opened[0]);
    expect(ahead.take()).toBeNull();
    expect(opened).toHaveLength(1);
  });

  it("is quit when no command came for a while, and kept while the page plays", async () => {
    const { ahead, opened, ended } = opener();
    ahead.open();
    await vi.advanceTimersByTimeAsync(AHEAD_IDLE_MS - 1_000);
    ahead.touch();
    await vi.advanceTimersByTimeAsync(AHEAD_IDLE_MS - 1_000);
    expect(ended).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(ended).toEqual([opened[0]]);
    expect(ahead.take()).toBeNull();
  });

  it("is quit with the page, and one taken is not", async () => {
    const { ahead, opened, ended } = opener();
    ahead.open();
    await ahead.take();
    ahead.open();
    await ahead.close();
    expect(ended).toEqual([opened[1]]);
  });

  it("gives null to its taker when it could not be opened", async () => {
    const ahead = sessionAhead(() => Promise.reject(new Error("no browser")), async () => {});
    ahead.open();
    expect(await ahead.take()).toBeNull();
  });
});
