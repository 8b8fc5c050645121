/**
 * How the web checker (adr-check serve) holds up, for docs/web.md: not a test, figures to read.
 *
 *   npm run bench:web -- [--runs 10] [--file <description>] [--max-running 4]
 *
 * A web checker and the reference API start in this process, on loopback (the reference API
 * allowed by --allow 127.0.0.1/32). Then, through the JSON API, each time from submission to done:
 * - a static check of a ~30 KB description (examples/monumenten-api.yaml), after warm-up runs: median;
 * - a live check of the reference API: median;
 * - 50 static checks submitted at once, then 8 live checks at once: errors, wall time, peak RSS.
 * Memory is this process's resident set (the server, its lint workers and the reference API
 * together), sampled every 100 ms.
 */
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startReferenceApi } from '../examples/reference-api/server.js';
import { serveOptions } from '../web/options.js';
import { startWebChecker } from '../web/server.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    file: { type: 'string', default: resolve('examples/monumenten-api.yaml') },
    'max-running': { type: 'string', default: '4' },
  },
});
const runs = Number(values.runs);

function median(numbers: number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] ?? 0 : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

let peakRss = 0;
const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 100);
const megabytes = (bytes: number) => `${Math.round(bytes / 1048576)} MB`;

const api = await startReferenceApi({});
const dataDir = mkdtempSync(join(tmpdir(), 'adr-check-bench-web-'));
const checker = await startWebChecker(serveOptions({ port: 0, dataDir, allow: ['127.0.0.1/32'], ca: api.caPem, maxRunning: Number(values['max-running']), maxQueued: 100, ratePerMinute: 100_000, maxBatch: 50 }));
const description = readFileSync(values.file, 'utf8');

/** Submits a check and polls its state every 20 ms: milliseconds from submission to done, and how it ended. */
async function check(body: object): Promise<{ ms: number; state: string; error?: string }> {
  const started = performance.now();
  const response = await fetch(`${checker.origin}/api/v1/checks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 202) return { ms: performance.now() - started, state: `HTTP ${response.status}`, error: await response.text() };
  const { id } = await response.json() as { id: string };
  for (;;) {
    const state = await (await fetch(`${checker.origin}/api/v1/checks/${id}`)).json() as { state: string; error?: string };
    if (state.state === 'done' || state.state === 'failed') return { ms: performance.now() - started, state: state.state, ...(state.error === undefined ? {} : { error: state.error }) };
    await new Promise((done) => setTimeout(done, 20));
  }
}

async function sequential(label: string, body: object, count: number, warmUp: number): Promise<void> {
  for (let index = 0; index < warmUp; index += 1) await check(body);
  const times: number[] = [];
  const failures: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const outcome = await check(body);
    times.push(outcome.ms);
    if (outcome.state !== 'done') failures.push(`${outcome.state}: ${outcome.error ?? ''}`);
  }
  console.log(`${label}: median ${Math.round(median(times))} ms (min ${Math.round(Math.min(...times))}, max ${Math.round(Math.max(...times))}; ${count} runs after ${warmUp} warm-up)${failures.length === 0 ? '' : `; ${failures.length} not done: ${failures[0]}`}`);
}

async function concurrent(label: string, body: object, count: number): Promise<void> {
  peakRss = process.memoryUsage().rss;
  const started = performance.now();
  const outcomes = await Promise.all(Array.from({ length: count }, () => check(body)));
  const failures = outcomes.filter((outcome) => outcome.state !== 'done');
  console.log(`${label}: ${count} at once, ${count - failures.length} done, ${failures.length} not (${failures[0]?.state ?? ''} ${failures[0]?.error ?? ''}); all in ${Math.round(performance.now() - started)} ms, slowest ${Math.round(Math.max(...outcomes.map((outcome) => outcome.ms)))} ms; peak RSS ${megabytes(peakRss)}`);
}

console.log(`bench:web: Node ${process.version}, load ${loadavg().map((load) => load.toFixed(1)).join(' ')}, --max-running ${values['max-running']}, description ${values.file} (${description.length} bytes); RSS at start ${megabytes(process.memoryUsage().rss)}`);
try {
  await sequential('static check', { description, name: 'bench.yaml' }, runs, 3);
  await sequential('live check of the reference API', { url: api.baseUrl }, Math.max(3, Math.floor(runs / 3)), 1);
  await concurrent('static checks', { description, name: 'bench.yaml' }, 50);
  await concurrent('live checks of the reference API', { url: api.baseUrl }, 8);
} finally {
  clearInterval(sampler);
  await checker.close();
  await api.close();
  rmSync(dataDir, { recursive: true, force: true });
}
