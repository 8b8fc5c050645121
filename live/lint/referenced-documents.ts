import { readDocument, type DocumentLimits } from './guards.js';

/** What all the documents a description references are held to together. */
export interface ReferenceBudget {
  /** Bytes of all of them. */
  bytes: number;
  /** Documents fetched at most: each is a request of the run's --max-requests. */
  documents: number;
  /** Absolute time (ms since epoch) by which the lint must be done: none is fetched in its second half, which Spectral needs. */
  deadline: number;
}

/** Fetched at a time: what is in flight stays small however many documents are named. */
const IN_FLIGHT = 4;

/**
 * The documents a description's `$ref`s name, as the lint worker reads them: each held to the
 * same limits as the description, all of them together to a budget of bytes, documents and time,
 * a few fetched at a time. A document refused fails its `$ref`s with one reason, which Spectral
 * reports once per document.
 */
export class ReferencedDocuments {
  private bytes = 0;
  private fetched = 0;
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  /** Half the time from when the lint starts (the worker's start-up not counted) to its deadline. */
  private readonly fetchUntil: number;

  constructor(
    private readonly fetchText: (url: string) => Promise<string>,
    private readonly limits: DocumentLimits,
    private readonly budget: ReferenceBudget,
  ) {
    this.fetchUntil = Date.now() + (budget.deadline - Date.now()) / 2;
  }

  async read(url: string): Promise<string> {
    await this.slot();
    try {
      const spent = this.spentBudget();
      if (spent !== undefined) throw this.refused(`${url}: not read, ${spent}`);
      this.fetched += 1;
      const text = await this.fetchText(url);
      this.bytes += Buffer.byteLength(text, 'utf8');
      if (this.bytes > this.budget.bytes) throw this.refused(`${url}: not read, ${this.overBytes()}`);
      const reading = readDocument(text, this.limits);
      if (reading.kind === 'refused') throw this.refused(`${url}: not read, it ${reading.reason}`);
      return text;
    } finally {
      this.inFlight -= 1;
      this.waiting.shift()?.();
    }
  }

  /** Which part of the budget is spent, in words that follow "not read, ". */
  private spentBudget(): string | undefined {
    if (this.bytes >= this.budget.bytes) return this.overBytes();
    if (this.fetched >= this.budget.documents) return `the description references more than ${this.budget.documents} documents (the budget of all of them)`;
    if (Date.now() >= this.fetchUntil) return 'the time for referenced documents (half the lint\'s) is spent';
    return undefined;
  }

  private overBytes(): string {
    return `the documents referenced are over ${this.budget.bytes.toLocaleString('en-US')} bytes together (the budget of all of them)`;
  }

  private refused(reason: string): Error {
    return new Error(reason);
  }

  private async slot(): Promise<void> {
    if (this.inFlight >= IN_FLIGHT) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight += 1;
  }
}
