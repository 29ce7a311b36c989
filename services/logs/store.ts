export type LogGroup = "system" | "playback";
export type LogLevel = "info" | "warn" | "error";

export type LogEntry = Readonly<{
  id: string;
  group: LogGroup;
  level: LogLevel;
  message: string;
  source: string;
  at: number;
}>;

export type LogInput = Omit<LogEntry, "id">;

type Stored = { seq: number; entry: LogEntry };

/**
 * A fixed-size ring: once full, each push overwrites the oldest slot, so memory
 * stays flat and a push is O(1) however long the store keeps receiving.
 */
class Ring {
  private readonly items: Stored[] = [];
  private head = 0;
  constructor(private readonly cap: number) {}

  /** True when an older item had to go to make room. */
  push(item: Stored): boolean {
    if (this.cap === 0) return true;
    if (this.items.length < this.cap) {
      this.items.push(item);
      return false;
    }
    this.items[this.head] = item;
    this.head = (this.head + 1) % this.cap;
    return true;
  }

  get length(): number {
    return this.items.length;
  }

  /** Every item, oldest first. */
  inOrder(): Stored[] {
    return this.head === 0 ? this.items.slice() : this.items.slice(this.head).concat(this.items.slice(0, this.head));
  }
}

export class LogStore {
  private readonly rings: Record<LogGroup, Ring>;
  private readonly droppedCounts = { system: 0, playback: 0 };
  private seq = 0;

  constructor(capPerGroup: number) {
    if (!Number.isSafeInteger(capPerGroup) || capPerGroup < 0) {
      throw new RangeError(`capPerGroup must be a non-negative integer, got ${String(capPerGroup)}`);
    }
    this.rings = { system: new Ring(capPerGroup), playback: new Ring(capPerGroup) };
  }

  append(input: LogInput): LogEntry {
    if (input.group !== "system" && input.group !== "playback") {
      throw new TypeError(`unknown log group ${JSON.stringify(input.group)}`);
    }
    this.seq += 1;
    // Only the known fields, frozen: entries go into views that must stay as appended.
    const entry: LogEntry = Object.freeze({
      id: `log-${this.seq}`,
      group: input.group,
      level: input.level,
      message: input.message,
      source: input.source,
      at: input.at,
    });
    if (this.rings[input.group].push({ seq: this.seq, entry })) this.droppedCounts[input.group] += 1;
    return entry;
  }

  /** A fresh array, oldest first across both groups, in append order. */
  entries(): LogEntry[] {
    const a = this.rings.system.inOrder();
    const b = this.rings.playback.inOrder();
    const out: LogEntry[] = new Array(a.length + b.length);
    let i = 0;
    let j = 0;
    for (let k = 0; k < out.length; k++) {
      const takeA = j >= b.length || (i < a.length && a[i].seq < b[j].seq);
      out[k] = takeA ? a[i++].entry : b[j++].entry;
    }
    return out;
  }

  dropped(): { system: number; playback: number } {
    return { ...this.droppedCounts };
  }

  get size(): number {
    return this.rings.system.length + this.rings.playback.length;
  }

  /** Increments on every append, so a view can tell the logs changed without comparing them. */
  get version(): number {
    return this.seq;
  }
}
