import type { Finding } from '../../lib/lint.js';
import { DOCUMENT_LIMITS } from './guards.js';
import { lintWorkers } from './pool.js';
import type { CompareJob, FetchAnswer, JobResult, LintJob, MainMessage, WorkerJob, WorkerMessage } from './protocol.js';
import type { LintRuleset } from './ruleset.js';

export type LintStatus = 'done' | 'too-deep' | 'timeout' | 'out-of-memory' | 'failed';

export interface LintOutcome {
  status: LintStatus;
  findings: Finding[];
  /** Findings beyond the cap, counted but not kept. */
  omitted: number;
  durationMs: number;
  /** Why the lint did not finish, in words for the report. */
  reason?: string;
  /** Each found rule's one-line description. */
  descriptions?: Record<string, string>;
}

export interface LintBudget {
  /** Absolute time (ms since epoch) by which the lint must be done. */
  deadline: number;
  /** Time for the job itself, counted from when the worker is ready (not its start-up), never past `deadline`. */
  workMs?: number;
  /** Heap of the lint worker, in MB. */
  memoryMb: number;
}

/** Fetches a document a `$ref` names, or says why not. */
export type ReferenceFetcher = (url: string) => Promise<{ text: string } | { reason: string }>;

/** Findings kept at most, and characters of their strings together: a report stays readable and within memory. */
const MAX_FINDINGS = 10_000;
const MAX_FINDING_CHARS = 4_000_000;
/** Bytes and number of all the documents a description's `$ref`s name, together (docs/live/static-lint.md). */
const REFERENCE_BYTES = 10_000_000;
const REFERENCED_DOCUMENTS = 100;

type Unfinished = { status: 'timeout' | 'out-of-memory' | 'failed'; reason: string };

/** What a job is called in the report's sentences, and what its budget is called. */
interface JobNames { what: string; time: string; memory: string }

let jobNumber = 0;

/**
 * Runs one job on a pooled worker thread (pool.ts) within a time and memory budget, answering its
 * fetches. Never rejects: a job that runs out of budget or fails is an outcome, and its worker is
 * terminated, not reused.
 */
function runInWorker(job: WorkerJob, key: string, budget: LintBudget, fetchReference: ReferenceFetcher, names: JobNames): Promise<JobResult | Unfinished> {
  const started = Date.now();
  const pooled = lintWorkers.take(`${key} ${budget.memoryMb}`, budget.memoryMb);
  const { worker } = pooled;
  jobNumber += 1;
  const number = jobNumber;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: JobResult | Unfinished, reusable = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      lintWorkers.give(pooled, reusable);
      resolve(outcome);
    };
    const outOfTime = (ms: number) => () => finish({ status: 'timeout', reason: `${names.what} did not finish within its time budget (${(ms / 1000).toFixed(1)} s, ${names.time})` });
    let timer = setTimeout(outOfTime(budget.deadline - started), Math.max(0, budget.deadline - started));
    // The job's own time counts once its worker is ready: at once for a warm one.
    const workFromNow = () => {
      if (budget.workMs === undefined || settled) return;
      const ms = Math.min(budget.workMs, budget.deadline - Date.now());
      clearTimeout(timer);
      timer = setTimeout(outOfTime(ms), Math.max(0, ms));
    };
    const onMessage = (message: WorkerMessage) => {
      if (message.kind === 'ready') {
        pooled.ready = true;
        workFromNow();
        return;
      }
      if (message.job !== number) return;
      if (message.kind !== 'fetch') return finish(message, message.reusable);
      void fetchReference(message.url).then((result) => {
        const answer: FetchAnswer = 'text' in result ? { kind: 'fetched', job: number, id: message.id, text: result.text } : { kind: 'refused', job: number, id: message.id, reason: result.reason };
        if (!settled) worker.postMessage(answer);
      });
    };
    const onError = (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') finish({ status: 'out-of-memory', reason: `${names.what} ran out of its memory budget (${budget.memoryMb} MB, ${names.memory})` });
      else finish({ status: 'failed', reason: `${names.what} failed: ${error.message}` });
    };
    const onExit = (code: number) => finish({ status: 'failed', reason: `${names.what} stopped without a result (exit ${code})` });
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    if (pooled.ready) workFromNow();
    const message: MainMessage = { kind: 'job', job: number, work: job };
    worker.postMessage(message);
  });
}

/** How a lint is run besides its budget. */
export interface LintOptions {
  /** A description the user names on their own disk (--static): its file `$ref`s are read, http(s) ones are not fetched. */
  localFile?: boolean;
  /** The ruleset to lint with (ruleset.ts); default the full nlgov-adr. */
  ruleset?: LintRuleset;
}

/**
 * Lints the description on a worker thread within a time and memory budget. Never rejects: a lint
 * that runs out of budget or fails is an outcome the report shows.
 */
export async function lintInWorker(text: string, source: string, budget: LintBudget, fetchReference: ReferenceFetcher, options: LintOptions = {}): Promise<LintOutcome> {
  const localFile = options.localFile === true;
  const started = Date.now();
  // Files on the user's disk (--static) are no requests: only their bytes and time count.
  const references = { bytes: REFERENCE_BYTES, documents: localFile ? Number.POSITIVE_INFINITY : REFERENCED_DOCUMENTS, deadline: budget.deadline };
  const job: LintJob = { kind: 'lint', text, source, maxFindings: MAX_FINDINGS, maxFindingChars: MAX_FINDING_CHARS, limits: DOCUMENT_LIMITS, references, localFile, ...(options.ruleset === undefined ? {} : { ruleset: options.ruleset }) };
  const outcome = await runInWorker(job, `lint ${JSON.stringify(options.ruleset ?? null)}`, budget, fetchReference, { what: 'the static lint', time: 'the rest of --deadline', memory: '--lint-memory' });
  const durationMs = Date.now() - started;
  if ('status' in outcome) return { status: outcome.status, findings: [], omitted: 0, reason: outcome.reason, durationMs };
  switch (outcome.kind) {
    case 'done': return { status: 'done', findings: outcome.findings, omitted: outcome.omitted, descriptions: outcome.descriptions, durationMs };
    case 'refused': return { status: 'too-deep', findings: [outcome.finding], omitted: 0, reason: outcome.reason, durationMs };
    case 'failed': return { status: 'failed', findings: [], omitted: 0, reason: `the static lint failed: ${outcome.message}`, durationMs };
    default: return { status: 'failed', findings: [], omitted: 0, reason: `the static lint answered ${outcome.kind}`, durationMs };
  }
}

/** Heap of a comparison's worker: a served YAML of a few MB, parsed without Spectral. */
export const COMPARE_MEMORY_MB = 192;

export type ComparisonOutcome =
  | { kind: 'same' }
  | { kind: 'different'; at: string }
  | { kind: 'not-yaml'; error: string }
  /** Not judged: why, in words that complete "/openapi.yaml is not judged: ...". */
  | { kind: 'not-judged'; reason: string };

/**
 * Whether the served YAML has the content of the served JSON, parsed and compared on a worker
 * thread within its time budget and COMPARE_MEMORY_MB, under the limits every document is read with.
 */
export async function compareYamlInWorker(yaml: string, json: string, budget: { deadline: number; workMs: number }): Promise<ComparisonOutcome> {
  const refuse: ReferenceFetcher = async (url) => ({ reason: `not fetched: ${url}` });
  const job: CompareJob = { kind: 'compare-yaml', yaml, json, limits: DOCUMENT_LIMITS };
  const outcome = await runInWorker(job, 'compare-yaml', { ...budget, memoryMb: COMPARE_MEMORY_MB }, refuse, { what: 'its parse', time: 'a quarter of the rest of --deadline', memory: 'its heap' });
  if ('status' in outcome) return { kind: 'not-judged', reason: outcome.reason };
  if (outcome.kind !== 'compared') return { kind: 'not-judged', reason: outcome.kind === 'failed' ? `its parse failed: ${outcome.message}` : `its parse answered ${outcome.kind}` };
  if (outcome.refused !== undefined) return { kind: 'not-judged', reason: outcome.refused };
  if (outcome.notYaml !== undefined) return { kind: 'not-yaml', error: outcome.notYaml };
  return outcome.difference === undefined ? { kind: 'same' } : { kind: 'different', at: outcome.difference };
}
