// How `npm run play -- -w N` shares its workers (apps/play/workers.ts): the run's jobs in the
// order named, each costing the workers it may keep busy, none jumping the queue; and the slots
// that keep a project's host for its next job. Jobs here are promises the test ends by hand.
import { describe, expect, it } from "vitest";
import { inTurn, jobsOf, slots } from "../../apps/play/workers.ts";
import type { Chosen } from "../../apps/play/workers.ts";
import type { SideProject } from "../../services/side/index.ts";

/** Jobs that start when the scheduler says and end when the test says. */
function handJobs(costs: number[]) {
  const jobs = costs.map((cost, i) => ({ cost, name: `j${i}` }));
  const started: string[] = [];
  const enders = new Map<string, (error?: Error) => void>();
  const run = (job: { name: string }) =>
    new Promise<void>((resolve, reject) => {
      started.push(job.name);
      enders.set(job.name, (error) => (error ? reject(error) : resolve()));
    });
  // Lets the scheduler hear of what ended and start what it may.
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const end = async (name: string, error?: Error) => {
    enders.get(name)!(error);
    await settle();
  };
  return { jobs, started, run, end };
}

describe("the workers of a run", () => {
  it("starts jobs in order while their costs fit, and a costly one only once enough have ended, none jumping it", async () => {
    const hand = handJobs([1, 1, 2, 1]);
    const done = inTurn(hand.jobs, 2, hand.run, () => false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(hand.started).toEqual(["j0", "j1"]);
    await hand.end("j0");
    // j2 needs both workers; j3 (one) waits behind it.
    expect(hand.started).toEqual(["j0", "j1"]);
    await hand.end("j1");
    expect(hand.started).toEqual(["j0", "j1", "j2"]);
    await hand.end("j2");
    expect(hand.started).toEqual(["j0", "j1", "j2", "j3"]);
    await hand.end("j3");
    await done;
  });

  it("starts nothing more once stopped or once a job failed, and rejects with that failure after the others ended", async () => {
    const hand = handJobs([1, 1, 1]);
    const told: unknown[] = [];
    const done = inTurn(hand.jobs, 2, hand.run, () => false, (error) => told.push(error));
    const outcome = done.then(
      () => null,
      (error: Error) => error.message,
    );
    await hand.end("j0", new Error("no host"));
    expect(told).toHaveLength(1);
    await hand.end("j1");
    expect(hand.started).toEqual(["j0", "j1"]);
    expect(await outcome).toBe("no host");
  });
});

const project = (suites: Array<{ id: string; parallel?: boolean; persistSession?: boolean; tests: string[] }>) =>
  ({ id: "p", name: "P", url: "http://127.0.0.1:1", tests: [], suites: suites.map((s) => ({ name: s.id, ...s })) }) as unknown as SideProject;

describe("a run's jobs", () => {
  it("give each suite a job, a parallel suite the workers its tests can use, and a project's tests one job together", () => {
    const p = project([
      { id: "one", tests: ["a"] },
      { id: "wide", parallel: true, tests: ["a", "b", "c", "d"] },
      { id: "narrow", parallel: true, tests: ["a"] },
      { id: "shared", parallel: true, persistSession: true, tests: ["a", "b"] },
    ]);
    const suites: Chosen = { file: "p.side", project: p, label: "P", targets: ["one", "wide", "narrow", "shared"].map((id) => ({ kind: "suite", id, name: id })) };
    const tests: Chosen = { file: "q.side", project: p, label: "Q", targets: ["a", "b"].map((id) => ({ kind: "test", id, name: id })) };
    expect(jobsOf([suites, tests], 3).map((j) => [j.targets.map((t) => t.name).join(","), j.cost, j.parallel])).toEqual([
      ["one", 1, false],
      ["wide", 3, true],
      ["narrow", 1, true],
      // persistSession wins over parallel: one session, in order.
      ["shared", 1, false],
      ["a,b", 1, false],
    ]);
    expect(jobsOf([suites], 1).map((j) => j.cost)).toEqual([1, 1, 1, 1]);
  });
});

describe("the slots of a run", () => {
  it("keep a project's host for its next job, open another for a job played at once, and close a host its project no longer needs", async () => {
    const opened: string[] = [];
    const closed: string[] = [];
    let n = 0;
    const pool = slots(
      async (c) => {
        const name = `${c.label}#${++n}`;
        opened.push(name);
        return name;
      },
      async (host) => void closed.push(host),
    );
    const a = { label: "A" } as Chosen;
    const b = { label: "B" } as Chosen;
    const first = await pool.take(a);
    const second = await pool.take(a);
    expect([first.host, second.host]).toEqual(["A#1", "A#2"]);
    await first.release(true);
    const again = await pool.take(a);
    expect(again.host).toBe("A#1");
    await again.release(false);
    expect(closed).toEqual(["A#1"]);
    const other = await pool.take(b);
    expect(other.host).toBe("B#3");
    await pool.close();
    expect(closed.sort()).toEqual(["A#1", "A#2", "B#3"]);
  });
});
