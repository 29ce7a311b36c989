// `-w/--max-workers N` (CONTRACT section 22): up to N suites at once across the run's projects,
// and a parallel suite's tests on the same N workers. The run is cut into jobs (a suite, or a
// project's tests played one by one, in order), each costing the workers it may keep busy: 1, or
// for a parallel suite its tests up to N. Jobs start in the order named, each once enough workers
// are free; none jumps the queue, so a parallel suite is not starved by the single suites after
// it, and never more than N tests play at once. Each job plays in an IDE of its own: a slot (at
// most N) holds one host (createIde, its plugin bridge, its page pool: apps/host/compose.ts) for
// one project, each project with its own base URL; a slot keeps its host for the project's next
// job, and closes it once the project has no job left to start. With -w 1 that is one host per
// project, one job after another, as before.
import type { SideProject } from "../../services/side/index.ts";
import { suitesOf } from "../../services/playback/targets.ts";
import { suiteSettings } from "../../machines/suiteRunner.plays.ts";
import type { Target } from "../cli/targets.ts";

/** A project read and its targets chosen. */
export interface Chosen {
  file: string;
  project: SideProject;
  targets: Target[];
  /** How its suites are named in the reports: by the project too when several play. */
  label: string;
}

/** What one IDE plays at a time: one suite, or a project's tests one by one. */
export interface Job {
  chosen: Chosen;
  targets: Target[];
  /** The workers it may keep busy at once. */
  cost: number;
  /** A parallel suite (its tests at once, up to the workers). */
  parallel: boolean;
}

/** The run's jobs, in the order named: each suite alone, a project's tests one by one together. */
export function jobsOf(chosen: readonly Chosen[], workers: number): Job[] {
  const jobs: Job[] = [];
  for (const c of chosen) {
    const suites = suitesOf(c.project);
    let tests: Job | null = null;
    for (const target of c.targets) {
      if (target.kind === "test") {
        if (tests) tests.targets.push(target);
        else jobs.push((tests = { chosen: c, targets: [target], cost: 1, parallel: false }));
        continue;
      }
      tests = null;
      const suite = suites.find((s) => s.id === target.id);
      // The suite runner's own reading of the settings: persistSession wins over parallel.
      const parallel = suite !== undefined && workers > 1 && suiteSettings({ parallel: suite.parallel === true, persistSession: suite.persistSession === true }).parallel;
      jobs.push({ chosen: c, targets: [target], cost: parallel ? Math.max(1, Math.min(workers, suite.tests.length)) : 1, parallel });
    }
  }
  return jobs;
}

/**
 * Runs each job once its cost of the `limit` workers is free, in order, none jumping the queue;
 * starts none once `stopped()` says so, or once one rejected. Resolves when every job started has
 * ended; rejects with the first rejection then (`failed` is told at once, to end the others).
 */
export async function inTurn<J extends { cost: number }>(
  jobs: readonly J[],
  limit: number,
  run: (job: J) => Promise<void>,
  stopped: () => boolean,
  failed: (error: unknown) => void = () => {},
): Promise<void> {
  let free = limit;
  let failure: { error: unknown } | null = null;
  const running = new Set<Promise<void>>();
  for (const job of jobs) {
    const cost = Math.min(Math.max(1, job.cost), limit);
    while (free < cost && failure === null) await Promise.race(running);
    if (failure !== null || stopped()) break;
    free -= cost;
    const playing: Promise<void> = run(job)
      .catch((error: unknown) => {
        if (failure !== null) return;
        failure = { error };
        failed(error);
      })
      .finally(() => {
        free += cost;
        running.delete(playing);
      });
    running.add(playing);
  }
  await Promise.all(running);
  if (failure !== null) throw (failure as { error: unknown }).error;
}

/** A worker slot's host, for one project at a time. */
interface Slot<H> {
  host: H | null;
  chosen: Chosen | null;
  busy: boolean;
}

/**
 * The slots jobs play in: `take` gives an idle slot with a host for the job's project (one it has,
 * else one made by `open`, after closing another project's), `give` hands the slot back and closes
 * its host when `keep` says its project has nothing left. At most as many slots as jobs play at once.
 */
export function slots<H>(open: (chosen: Chosen) => Promise<H>, closeHost: (host: H) => Promise<void>) {
  const all: Array<Slot<H>> = [];
  return {
    async take(chosen: Chosen): Promise<{ host: H; release: (keep: boolean) => Promise<void> }> {
      const idle = all.filter((s) => !s.busy);
      const slot = idle.find((s) => s.chosen === chosen) ?? idle.find((s) => s.host === null) ?? idle[0] ?? all[all.push({ host: null, chosen: null, busy: false }) - 1];
      slot.busy = true;
      try {
        if (slot.chosen !== chosen && slot.host !== null) {
          const old = slot.host;
          slot.host = null;
          slot.chosen = null;
          await closeHost(old);
        }
        if (slot.host === null) {
          slot.host = await open(chosen);
          slot.chosen = chosen;
        }
      } catch (error) {
        slot.busy = false;
        throw error;
      }
      const host = slot.host;
      return {
        host,
        async release(keep) {
          if (!keep && slot.host === host) {
            slot.host = null;
            slot.chosen = null;
            await closeHost(host).finally(() => (slot.busy = false));
            return;
          }
          slot.busy = false;
        },
      };
    },
    /** Closes every host still open. */
    async close(): Promise<void> {
      const open = all.flatMap((s) => (s.host === null ? [] : [s.host]));
      all.length = 0;
      await Promise.all(open.map((host) => closeHost(host).catch(() => {})));
    },
  };
}
