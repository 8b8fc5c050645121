import { parentPort, workerData } from 'node:worker_threads';
import { readFile } from 'node:fs/promises';
import { Resolver } from '@stoplight/spectral-ref-resolver';
import { parse as parseYaml } from 'yaml';
import { oas } from '@stoplight/spectral-rulesets';
import ruleset from '../../ruleset.js';
import { createLinter, lintText } from '../../lib/lint.js';
import { nestingDepth } from './depth.js';
import type { FetchAnswer, LintJob, WorkerMessage } from './protocol.js';

/** The lint worker: see protocol.ts. One job per worker, given as workerData. */

const port = parentPort;
if (port === null) throw new Error('the lint worker runs as a worker thread');
const job = workerData as LintJob;
const post = (message: WorkerMessage) => port.postMessage(message);

const waiting = new Map<number, { resolve(text: string): void; reject(error: Error): void }>();
let nextId = 0;
port.on('message', (answer: FetchAnswer) => {
  const pending = waiting.get(answer.id);
  waiting.delete(answer.id);
  if (answer.kind === 'fetched') pending?.resolve(answer.text);
  else pending?.reject(new Error(answer.reason));
});

function fetchThroughMain(url: string): Promise<string> {
  nextId += 1;
  const id = nextId;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    post({ kind: 'fetch', id, url });
  });
}

/** Anything without an http(s) URL is a path on this machine: never read on the server's say. */
const refuseLocal = {
  resolve: async (ref: { href(): string }): Promise<never> => {
    throw new Error(`not read: ${ref.href()} is a local file, and a downloaded description may only reference documents of its own server`);
  },
};
const remote = { resolve: (ref: { href(): string }) => fetchThroughMain(ref.href()) };
const refuseRemote = {
  resolve: async (ref: { href(): string }): Promise<never> => {
    throw new Error(`not fetched: ${ref.href()}; a static run reads only files on this machine`);
  },
};

async function lint(): Promise<WorkerMessage> {
  try {
    const parsed: unknown = job.source.endsWith('.json') || !job.localFile ? JSON.parse(job.text) : parseYaml(job.text);
    const { depth, path } = nestingDepth(parsed, job.maxDepth);
    if (depth > job.maxDepth) return { kind: 'too-deep', depth, path: path.join('.') };
  } catch {
    // Not JSON: Spectral's parser reports it as a finding.
  }
  const resolver = job.localFile === true
    ? new Resolver({ resolvers: { file: { resolve: (ref: { href(): string }) => readFile(ref.href(), 'utf8') }, http: refuseRemote, https: refuseRemote } })
    : new Resolver({ resolvers: { file: refuseLocal, http: remote, https: remote } });
  const findings = await lintText(createLinter(ruleset, resolver), job.text, job.source);
  return { kind: 'done', findings: findings.slice(0, job.maxFindings), omitted: Math.max(0, findings.length - job.maxFindings), descriptions: descriptionsOf(findings) };
}

/** Each found rule's description, from our ruleset or the spectral:oas rules it extends (for SARIF's shortDescription). */
function descriptionsOf(findings: { code: string }[]): Record<string, string> {
  const rules = [(ruleset as { rules?: Record<string, { description?: string }> }).rules ?? {}, (oas as { rules?: Record<string, { description?: string }> }).rules ?? {}];
  const descriptions: Record<string, string> = {};
  for (const { code } of findings) {
    const description = rules.map((set) => set[code]?.description).find((text) => typeof text === 'string');
    if (description !== undefined) descriptions[code] = description;
  }
  return descriptions;
}

lint()
  .catch((error: unknown): WorkerMessage => ({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }))
  .then((message) => {
    post(message);
    port.close();
  });
