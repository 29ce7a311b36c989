// Size and rate limits (CONTRACT section 7).

export interface Limits {
  requestBytes: number;
  projectRequestBytes: number;
  logMessageBytes: number;
  logEntriesPerGroup: number;
  requestsPerSecond: number;
  requestBurst: number;
  deliverTimeoutMs: number;
  /** Not in CONTRACT section 7: how long the page under test may take over one command or condition. */
  pageCommandTimeoutMs: number;
}

export const DEFAULT_LIMITS: Limits = {
  requestBytes: 1024 * 1024,
  projectRequestBytes: 32 * 1024 * 1024,
  logMessageBytes: 64 * 1024,
  logEntriesPerGroup: 10_000,
  requestsPerSecond: 2_000,
  requestBurst: 10_000,
  deliverTimeoutMs: 5_000,
  pageCommandTimeoutMs: 60_000,
};

/** UTF-8 length of a string, without allocating its bytes. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Whether `text` is over `limit` UTF-8 bytes; most strings are decided by their length alone. */
export function overBytes(text: string, limit: number): boolean {
  if (text.length * 3 <= limit) return false;
  if (text.length > limit) return true;
  return utf8Bytes(text) > limit;
}

/** A token bucket per sender. Idle senders are forgotten once their bucket is full again. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  take(sender: string): boolean {
    const now = this.now();
    let bucket = this.buckets.get(sender);
    if (!bucket) {
      if (this.buckets.size >= 10_000) this.forgetFullBuckets(now);
      bucket = { tokens: this.burst, at: now };
      this.buckets.set(sender, bucket);
    } else {
      bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
      bucket.at = now;
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  private forgetFullBuckets(now: number): void {
    for (const [sender, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond >= this.burst) this.buckets.delete(sender);
    }
  }
}
