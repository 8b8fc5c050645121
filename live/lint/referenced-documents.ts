import { readDocument, type DocumentLimits } from './guards.js';

/**
 * The documents a description's `$ref`s name, as the lint worker reads them: each held to the
 * same limits as the description, all of them together to a byte budget, and a few fetched at a
 * time, so that what is in flight stays small however many documents are named. A document
 * refused fails its `$ref`s with one reason, which Spectral reports once per document.
 */
export class ReferencedDocuments {
  private bytes = 0;
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  /** The reason given for each document refused, as its `$ref`s' resolver error. */
  readonly refusals = new Set<string>();

  constructor(
    private readonly fetchText: (url: string) => Promise<string>,
    private readonly limits: DocumentLimits,
    private readonly budgetBytes: number,
    private readonly maxInFlight = 4,
  ) {}

  async read(url: string): Promise<string> {
    await this.slot();
    try {
      if (this.bytes >= this.budgetBytes) throw this.overBudget(url);
      const text = await this.fetchText(url);
      this.bytes += Buffer.byteLength(text, 'utf8');
      if (this.bytes > this.budgetBytes) throw this.overBudget(url);
      const reading = readDocument(text, this.limits);
      if (reading.kind === 'refused') throw this.refused(`${url}: not read, it ${reading.reason}`);
      return text;
    } finally {
      this.inFlight -= 1;
      this.waiting.shift()?.();
    }
  }

  private refused(reason: string): Error {
    this.refusals.add(reason);
    return new Error(reason);
  }

  private overBudget(url: string): Error {
    return this.refused(`${url}: not read, the documents referenced are over ${this.budgetBytes.toLocaleString('en-US')} bytes together (the budget of all of them)`);
  }

  private async slot(): Promise<void> {
    if (this.inFlight >= this.maxInFlight) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight += 1;
  }
}
