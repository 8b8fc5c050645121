import { parentPort, resourceLimits } from 'node:worker_threads';
import { readFile } from 'node:fs/promises';
import { firstDifference } from '../../lib/json-difference.js';
import type { Finding } from '../../lib/lint.js';
import { readDocument } from './guards.js';
import { boundedText } from './bounded-text.js';
import { ReferencedDocuments } from './referenced-documents.js';
import { readOgcSchema } from '../../lib/ogc-schema-files.js';
import { followsFromUnreadParameter } from './follow-ons.js';
import type { Ruleset, RulesetDefinition } from '@stoplight/spectral-core';
import type { CompareJob, JobResult, LintJob, MainMessage, WorkerJob, WorkerMessage } from './protocol.js';
import type { LintRuleset } from './ruleset.js';

/**
 * The worker: see protocol.ts. It takes jobs by message, one at a time, and may be kept for the
 * next (pool.ts): what it keeps between jobs is only what every job of its ruleset shares (the
 * modules and the loaded ruleset); a job's own state lives in the job's call.
 */

const port = parentPort;
if (port === null) throw new Error('the lint worker runs as a worker thread');
const post = (message: WorkerMessage) => port.postMessage(message);

/** The fetches of the job in hand, by id: an answer for another job (one that ran out of time) is dropped. */
let current: { job: number; waiting: Map<number, { resolve(text: string): void; reject(error: Error): void }>; nextId: number } | undefined;

port.on('message', (message: MainMessage) => {
  if (message.kind === 'job') {
    void runJob(message.job, message.work);
    return;
  }
  if (current === undefined || message.job !== current.job) return;
  const pending = current.waiting.get(message.id);
  current.waiting.delete(message.id);
  if (message.kind === 'fetched') pending?.resolve(message.text);
  else pending?.reject(new Error(message.reason));
});
post({ kind: 'ready' });

function fetchThroughMain(url: string): Promise<string> {
  const job = current;
  if (job === undefined) return Promise.reject(new Error(`not fetched: ${url}`));
  job.nextId += 1;
  const id = job.nextId;
  return new Promise((resolve, reject) => {
    job.waiting.set(id, { resolve, reject });
    post({ kind: 'fetch', job: job.job, id, url });
  });
}

/** Whether the heap the job left is small enough for the next job to start as if fresh: under half the worker's limit. */
function heapIsLow(): boolean {
  const limitMb = resourceLimits.maxOldGenerationSizeMb;
  return limitMb === undefined || process.memoryUsage().heapUsed < (limitMb * 1048576) / 2;
}

/** The worker's ruleset, loaded once: the pool gives a worker jobs of one ruleset only, and a different one is loaded anew. */
let loaded: { key: string; ruleset: Promise<RulesetDefinition | Ruleset> } | undefined;

async function rulesetOf(choice: LintRuleset | undefined, load: (choice: LintRuleset | undefined) => Promise<RulesetDefinition | Ruleset>): Promise<RulesetDefinition | Ruleset> {
  const key = JSON.stringify(choice ?? null);
  if (loaded?.key !== key) loaded = { key, ruleset: load(choice) };
  // A ruleset that did not load fails the job, and a failed job ends its worker: the next one loads it anew.
  return loaded.ruleset;
}

type Answer = DistributiveOmit<JobResult, 'job' | 'reusable'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

async function lint(lintJob: LintJob): Promise<Answer> {
  const reading = readDocument(lintJob.text, lintJob.limits);
  if (reading.kind === 'refused') {
    const finding = refusedDescription(reading.reason, lintJob.limits.maxDepth, reading.tooDeep);
    return { kind: 'refused', finding, reason: boundedText(`the description ${reading.reason}; it was not linted`) };
  }
  // Spectral and the ruleset are loaded only for a lint: a comparison's worker starts without them.
  const [{ Resolver }, { oas }, { loadRuleset, linterWith, ruleDescriptions }, { lintDiagnostics }, { boundedFinding, keptFindings }] = await Promise.all([
    import('@stoplight/spectral-ref-resolver'), import('@stoplight/spectral-rulesets'), import('./load-ruleset.js'), import('../../lib/lint.js'), import('./findings.js'),
  ]);
  const ruleset = await rulesetOf(lintJob.ruleset, loadRuleset);
  // The user's own files (--static) are held to the same limits as a server's documents.
  const referenced = new ReferencedDocuments(lintJob.localFile === true ? (path) => readFile(path, 'utf8') : fetchThroughMain, lintJob.limits, lintJob.references);
  // Every reason a document was not read: /core/doc-openapi reports each once, so Spectral's invalid-ref beside it is dropped.
  const unread = new Set<string>();
  const read = {
    resolve: async (ref: { href(): string }): Promise<string> => {
      try {
        return await referenced.read(ref.href());
      } catch (error) {
        unread.add((error as Error).message);
        throw error;
      }
    },
  };
  // The OGC's published schemas come from the package's copies, in a live run and a static one alike: never fetched.
  const ogcFirst = (next: { resolve(ref: { href(): string }): Promise<string> }) => ({
    resolve: async (ref: { href(): string }): Promise<string> => {
      const packaged = readOgcSchema(ref.href());
      if (packaged.kind === 'packaged') return packaged.text;
      if (packaged.kind === 'other') return next.resolve(ref);
      unread.add(packaged.message);
      throw new Error(packaged.message);
    },
  });
  // What the run never reads is a document not read too: one finding, /core/doc-openapi's.
  const refuse = (message: (location: string) => string) => ({
    resolve: async (ref: { href(): string }): Promise<never> => {
      const reason = message(ref.href());
      unread.add(reason);
      throw new Error(reason);
    },
  });
  const resolver = lintJob.localFile === true
    ? new Resolver({ resolvers: { file: read, http: ogcFirst(refuse(notFetchedInStaticRun)), https: ogcFirst(refuse(notFetchedInStaticRun)) } })
    : new Resolver({ resolvers: { file: refuse(localFileNotRead), http: ogcFirst(read), https: ogcFirst(read) } });
  const diagnostics = await lintDiagnostics(linterWith(ruleset, resolver), lintJob.text, lintJob.source);
  // A document not read is reported once, by /core/doc-openapi with the same reason; Spectral's invalid-ref would say it twice.
  // Parsed again only if a path parameter is found missing while a document was not read (a YAML description costs a second toJS).
  let document: { data: unknown } | undefined;
  const description = () => (document ??= { data: reading.data() }).data;
  // A parameter defined in a document not read is not missing: path-params would follow from the one finding.
  const reported = diagnostics.filter((diagnostic) => !(diagnostic.code === 'invalid-ref' && unread.has(diagnostic.message))
    && !(diagnostic.code === 'path-params' && unread.size > 0 && followsFromUnreadParameter(description(), diagnostic.path)));
  const { kept, omitted } = keptFindings(reported.map(boundedFinding), lintJob.maxFindings, lintJob.maxFindingChars);
  const rules = [ruleDescriptions(ruleset), ruleDescriptions(oas as RulesetDefinition)];
  return { kind: 'done', findings: kept, omitted, descriptions: descriptionsOf(kept, rules) };
}

// The location last in a refusal: /core/doc-openapi shows the rest as the cause (it cuts the location out) and the location as the file.

/** Anything without an http(s) URL is a path on this machine: never read on the server's say. */
function localFileNotRead(location: string): string {
  return `not read, a downloaded description may only reference documents of its own server, not a local file: ${location}`;
}

function notFetchedInStaticRun(location: string): string {
  return `not fetched, a static run reads only files on this machine: ${location}`;
}

function refusedDescription(reason: string, maxDepth: number, tooDeep: { depth: number; path: string } | undefined): Finding {
  const message = tooDeep === undefined
    ? `Description is not linted: it ${reason}. Keep it within the limits in docs/live/static-lint.md: YAML anchors used sparingly, large objects split into documents of their own and $ref'd.`
    : `Description is too deep to lint: more than ${maxDepth} levels of nesting (${tooDeep.depth} at ${tooDeep.path || 'the root'}). Flatten it: name deep schemas in components and $ref them.`;
  return {
    code: tooDeep === undefined ? 'adr-check/description-not-linted' : 'adr-check/description-too-deep',
    severity: 'error',
    path: boundedText(tooDeep?.path ?? ''),
    message: boundedText(message),
    line: 1,
  };
}

/** Each found rule's description, from our ruleset or the spectral:oas rules it extends (for SARIF's shortDescription). */
function descriptionsOf(findings: { code: string }[], rules: Array<Record<string, { description?: string | null }>>): Record<string, string> {
  const descriptions: Record<string, string> = {};
  for (const { code } of findings) {
    const description = rules.map((set) => set[code]?.description).find((text) => typeof text === 'string');
    if (description !== undefined) descriptions[code] = description;
  }
  return descriptions;
}

/** The served YAML against the served JSON: both read within the limits, the first difference named. */
function compare(compareJob: CompareJob): Answer {
  const yaml = readDocument(compareJob.yaml, compareJob.limits);
  if (yaml.kind === 'refused') return { kind: 'compared', refused: `it ${yaml.reason}` };
  const json = readDocument(compareJob.json, compareJob.limits);
  if (json.kind === 'refused') return { kind: 'compared', refused: `/openapi.json ${json.reason}` };
  if (yaml.syntaxError !== undefined) return { kind: 'compared', notYaml: boundedText(yaml.syntaxError, 200) };
  const difference = firstDifference(json.data(), yaml.data());
  return { kind: 'compared', ...(difference === undefined ? {} : { difference: boundedText(difference, 200) }) };
}

/**
 * Runs one job and answers it. The worker is offered for another job only when this one ended
 * normally and left its heap low: what Spectral and our rules keep between runs is keyed by the
 * run (spectral-functions' ajv instances and lib/'s caches hang on the run's document inventory or
 * its objects, in WeakMaps), or is the ruleset's own (spectral's patterns); lib/ajv-interpreter.ts
 * keeps each pattern a description declares compiled, in a Map that pool.ts's MAX_JOBS bounds. A
 * job that failed may have left anything, and its worker ends.
 */
async function runJob(job: number, work: WorkerJob): Promise<void> {
  current = { job, waiting: new Map(), nextId: 0 };
  let answer: Answer;
  try {
    answer = work.kind === 'compare-yaml' ? compare(work) : await lint(work);
  } catch (error) {
    answer = { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
  current = undefined;
  post({ ...answer, job, reusable: answer.kind !== 'failed' && heapIsLow() } as JobResult);
}
