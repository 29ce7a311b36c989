// The CPU time of this process and of every process it started (chromedriver, and Chromium's
// browser, GPU, renderer and utility processes), read from Linux's /proc, by kind: what a
// benchmark's extra time is spent in (issue 34: a watched run's cost is Chromium's, not the
// host's). Empty where there is no /proc.
import { readFileSync, readdirSync } from "node:fs";

/** CPU milliseconds so far, by kind: "node" (this process), "chromedriver", Chromium's process types ("browser" for its main one). */
export function cpuByKind(): Record<string, number> {
  const usage = process.cpuUsage();
  const out: Record<string, number> = { node: (usage.user + usage.system) / 1000 };
  let names: string[];
  try {
    names = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return out;
  }
  const ticks = 100; // USER_HZ on Linux
  const parent = new Map<number, number>();
  const seen = new Map<number, { kind: string; ms: number }>();
  for (const name of names) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // Fields after the command's closing parenthesis: state, ppid, ..., utime (12th), stime (13th).
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parent.set(Number(name), Number(fields[1]));
      const command = readFileSync(`/proc/${name}/cmdline`, "utf8");
      const kind = command.includes("chromedriver") ? "chromedriver" : (/--type=([a-z-]+)/.exec(command)?.[1] ?? (/chrom/.test(command) ? "browser" : "other"));
      seen.set(Number(name), { kind, ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks });
    } catch {
      // A process that ended meanwhile.
    }
  }
  const ours = (pid: number) => {
    for (let p = parent.get(pid) ?? 0, depth = 0; p > 1 && depth < 32; p = parent.get(p) ?? 0, depth++) if (p === process.pid) return true;
    return false;
  };
  for (const [pid, { kind, ms }] of seen) if (ours(pid)) out[kind] = (out[kind] ?? 0) + ms;
  return out;
}

/** What `after` added to `before`, by kind. */
export function cpuSpent(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(after).map((kind) => [kind, after[kind] - (before[kind] ?? 0)]));
}
