import type { Finding } from '../../lib/lint.js';
import type { DocumentLimits } from './guards.js';
import type { ReferenceBudget } from './referenced-documents.js';
import type { LintRuleset } from './ruleset.js';

/**
 * The messages between adr-check and its worker threads. Every document a server sent that
 * adr-check parses whole is parsed on a worker, within a time and memory budget, so a slow or
 * hostile document cannot starve the live requests. A worker reads no file and opens no socket:
 * every `$ref` to another document is asked of the main thread, which fetches it (same origin
 * only) through the run's bounded HTTP client. A worker takes one job at a time by message
 * (pool.ts keeps it warm for the next one); each message names its job, so that an answer late
 * for one job is never taken for another's.
 */

export type WorkerJob = LintJob | CompareJob;

export interface LintJob {
  kind: 'lint';
  text: string;
  /** The URL the description was downloaded from: relative `$ref`s resolve against it. */
  source: string;
  /** Findings sent back at most; the rest are counted. */
  maxFindings: number;
  /** Characters of the findings' strings sent back at most; the findings past it are counted. */
  maxFindingChars: number;
  /** What the description and each referenced document are held to (nesting, members, YAML aliases). */
  limits: DocumentLimits;
  /** What all referenced documents together are held to. */
  references: ReferenceBudget;
  /** A description the user names on their own disk (--static): its file `$ref`s are read, http(s) ones are not fetched. */
  localFile?: boolean;
  /** The ruleset to lint with (ruleset.ts); default the full nlgov-adr. */
  ruleset?: LintRuleset;
}

/** Whether a served YAML text has the same content as the served JSON description. */
export interface CompareJob {
  kind: 'compare-yaml';
  yaml: string;
  json: string;
  limits: DocumentLimits;
}

export type WorkerMessage =
  /** The worker has started and loaded what its job needs: the job's own time counts from here. */
  | { kind: 'ready' }
  | { kind: 'fetch'; job: number; id: number; url: string }
  | JobResult;

/** A job's answer. `reusable`: whether the worker may take another job (worker.ts, runJob). */
export type JobResult = { job: number; reusable: boolean } & (
  | { kind: 'done'; findings: Finding[]; omitted: number; descriptions: Record<string, string> }
  /** The description itself exceeds a limit: not linted, one finding says why. */
  | { kind: 'refused'; finding: Finding; reason: string }
  /** `difference`: the JSON pointer of the first difference; `refused`: why the YAML was not read. */
  | { kind: 'compared'; difference?: string; refused?: string; notYaml?: string }
  | { kind: 'failed'; message: string });

/** What the main thread sends a worker: a job (numbered by the pool), or the answer to one of its fetches. */
export type MainMessage =
  | { kind: 'job'; job: number; work: WorkerJob }
  | { kind: 'fetched'; job: number; id: number; text: string }
  | { kind: 'refused'; job: number; id: number; reason: string };

export type FetchAnswer = Extract<MainMessage, { kind: 'fetched' | 'refused' }>;
