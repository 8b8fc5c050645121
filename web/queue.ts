/** The queue is full: the client may come back after `retryAfterSeconds`. */
export class QueueFullError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`the queue is full: try again in ${retryAfterSeconds} seconds`);
  }
}

interface Waiting { id: string; run: () => Promise<void> }

/**
 * At most `maxRunning` checks at once and `maxQueued` waiting, first come first served. A check
 * that throws is its runner's business: the queue only goes on with the next.
 */
export class CheckQueue {
  private readonly running = new Set<string>();
  private readonly waiting: Waiting[] = [];
  private readonly durations: number[] = [];
  private readonly drained: (() => void)[] = [];

  constructor(private readonly maxRunning: number, private readonly maxQueued: number, private readonly expectedSeconds: number) {}

  /** Room for `count` more checks (a batch is taken whole or not at all). */
  hasRoom(count = 1): boolean {
    const free = Math.max(0, this.maxRunning - this.running.size);
    return this.waiting.length + Math.max(0, count - free) <= this.maxQueued;
  }

  /** Seconds until a place is likely free: the recent checks' mean duration per round of running checks. */
  retryAfterSeconds(): number {
    const mean = this.durations.length === 0 ? this.expectedSeconds : this.durations.reduce((sum, value) => sum + value, 0) / this.durations.length;
    return Math.max(5, Math.ceil(mean * Math.ceil((this.waiting.length + 1) / this.maxRunning)));
  }

  /** Throws QueueFullError when there is no room. */
  submit(id: string, run: () => Promise<void>): void {
    if (!this.hasRoom()) throw new QueueFullError(this.retryAfterSeconds());
    this.waiting.push({ id, run });
    this.next();
  }

  /** 0 while it runs, 1 for the next to run, ...; undefined when the queue does not hold it. */
  position(id: string): number | undefined {
    if (this.running.has(id)) return 0;
    const index = this.waiting.findIndex((entry) => entry.id === id);
    return index === -1 ? undefined : index + 1;
  }

  get size(): { running: number; waiting: number } {
    return { running: this.running.size, waiting: this.waiting.length };
  }

  /** Resolves when nothing runs or waits. */
  idle(): Promise<void> {
    if (this.running.size === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  private next(): void {
    while (this.running.size < this.maxRunning) {
      const entry = this.waiting.shift();
      if (entry === undefined) break;
      this.running.add(entry.id);
      const started = Date.now();
      void entry.run().catch(() => undefined).finally(() => {
        this.running.delete(entry.id);
        this.durations.push((Date.now() - started) / 1000);
        if (this.durations.length > 20) this.durations.shift();
        this.next();
        if (this.running.size === 0 && this.waiting.length === 0) for (const resolve of this.drained.splice(0)) resolve();
      });
    }
  }
}
