import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Finding } from '../../lib/lint.js';
import type { FetchAnswer, LintJob, WorkerMessage } from './protocol.js';

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
  /** Heap of the lint worker, in MB. */
  memoryMb: number;
}

/** Fetches a document a `$ref` names, or says why not. */
export type ReferenceFetcher = (url: string) => Promise<{ text: string } | { reason: string }>;

export const MAX_DEPTH = 1000;
const MAX_FINDINGS = 10_000;

/**
 * Built: dist/lint-worker.js next to dist/adr-check.js. From source (tsx, jest): a bootstrap that
 * registers tsx in the worker (Node 20 does not pass the main thread's loader hooks on), then
 * imports the TypeScript entry.
 */
function startWorker(options: ConstructorParameters<typeof Worker>[1]): Worker {
  const built = new URL('./lint-worker.js', import.meta.url);
  if (existsSync(built)) return new Worker(built, options);
  const tsxApi = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./worker.ts', import.meta.url).href;
  const bootstrap = `(async () => { const { register } = await import(${JSON.stringify(tsxApi)}); register(); await import(${JSON.stringify(entry)}); })();`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/**
 * Lints the description on a worker thread within a time and memory budget. Never rejects: a lint
 * that runs out of budget or fails is an outcome the report shows.
 */
export function lintInWorker(text: string, source: string, budget: LintBudget, fetchReference: ReferenceFetcher, localFile = false): Promise<LintOutcome> {
  const started = Date.now();
  const job: LintJob = { text, source, maxFindings: MAX_FINDINGS, maxDepth: MAX_DEPTH, localFile };
  const worker = startWorker({
    workerData: job,
    stdin: false,
    resourceLimits: { maxOldGenerationSizeMb: budget.memoryMb, stackSizeMb: 8 },
  });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<LintOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve({ ...outcome, durationMs: Date.now() - started });
    };
    const unfinished = (status: LintStatus, reason: string) => finish({ status, findings: [], omitted: 0, reason });
    const seconds = Math.max(0, budget.deadline - started) / 1000;
    const timer = setTimeout(() => unfinished('timeout', `the static lint did not finish within its time budget (${seconds.toFixed(1)} s, the rest of --deadline)`), Math.max(0, budget.deadline - started));
    worker.on('message', (message: WorkerMessage) => {
      switch (message.kind) {
        case 'fetch':
          void fetchReference(message.url).then((result) => {
            const answer: FetchAnswer = 'text' in result ? { kind: 'fetched', id: message.id, text: result.text } : { kind: 'refused', id: message.id, reason: result.reason };
            if (!settled) worker.postMessage(answer);
          });
          return;
        case 'done':
          return finish({ status: 'done', findings: message.findings, omitted: message.omitted, descriptions: message.descriptions });
        case 'too-deep':
          return finish({ status: 'too-deep', findings: [tooDeepFinding(message.depth, message.path)], omitted: 0, reason: `the description nests more than ${MAX_DEPTH} levels deep; it was not linted` });
        case 'failed':
          return unfinished('failed', `the static lint failed: ${message.message}`);
      }
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') unfinished('out-of-memory', `the static lint ran out of its memory budget (${budget.memoryMb} MB, --lint-memory)`);
      else unfinished('failed', `the static lint failed: ${error.message}`);
    });
    worker.on('exit', (code) => unfinished('failed', `the static lint stopped without a result (exit ${code})`));
  });
}

function tooDeepFinding(depth: number, path: string): Finding {
  return {
    code: 'adr-check/description-too-deep',
    severity: 'error',
    path,
    message: `Description is too deep to lint: more than ${MAX_DEPTH} levels of nesting (${depth} at ${path || 'the root'}). Flatten it: name deep schemas in components and $ref them.`,
    line: 1,
  };
}
