import type { Finding } from '../../lib/lint.js';

/**
 * The messages between adr-check and its lint worker. The worker lints the downloaded description
 * on its own thread, so a slow or hostile description cannot starve the live requests; it reads
 * no file and opens no socket: every `$ref` to another document is asked of the main thread,
 * which fetches it (same origin only) through the run's bounded HTTP client.
 */

export interface LintJob {
  text: string;
  /** The URL the description was downloaded from: relative `$ref`s resolve against it. */
  source: string;
  /** Findings sent back at most; the rest are counted. */
  maxFindings: number;
  /** JSON nesting above which the description is not linted (Spectral's recursion would overflow). */
  maxDepth: number;
  /** A description the user names on their own disk (--static): its file `$ref`s are read, http(s) ones are not fetched. */
  localFile?: boolean;
}

export type WorkerMessage =
  | { kind: 'fetch'; id: number; url: string }
  | { kind: 'done'; findings: Finding[]; omitted: number; descriptions: Record<string, string> }
  | { kind: 'too-deep'; depth: number; path: string }
  | { kind: 'failed'; message: string };

export type FetchAnswer = { kind: 'fetched'; id: number; text: string } | { kind: 'refused'; id: number; reason: string };
