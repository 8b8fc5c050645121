/**
 * How the web checker (adr-check serve) holds up, for docs/web.md: not a test, figures to read.
 *
 *   npm run bench:web -- [--runs 10] [--file <description>] [--max-running 4] [--source]
 *
 * adr-check is built as users get it (tsup's adr-check and lint-worker bundles, into
 * .bench/web/dist) and `adr-check serve` runs as a child process, on loopback, with the reference
 * API (started here) allowed by --allow 127.0.0.1. --source runs live/cli.ts through tsx instead
 * (its lint workers then compile TypeScript as they start). Through the JSON API, each time from
 * submission to done:
 * - a static check of a ~30 KB description (examples/monumenten-api.yaml), after warm-up runs: median;
 * - a live check of the reference API: median;
 * - 50 static checks submitted at once, then 8 live checks at once: errors, wall time, peak RSS.
 * Memory is the server process's resident set (its lint workers are threads of it), sampled every 100 ms.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build, type Options } from 'tsup';
import { startReferenceApi } from '../examples/reference-api/server.js';
import tsupConfig from '../tsup.config.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    file: { type: 'string', default: resolve('examples/monumenten-api.yaml') },
    'max-running': { type: 'string', default: '4' },
    source: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const BUILT = resolve('.bench/web/dist');

function median(numbers: number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] ?? 0 : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1048576)} MB`;

/** adr-check's own bundle (the config's entry for adr-check), into .bench/web/dist, with the web checker's assets beside it. */
async function buildAdrCheck(): Promise<string> {
  const configs = (Array.isArray(tsupConfig) ? tsupConfig : [tsupConfig]) as Options[];
  const cli = configs.find((config) => typeof config.entry === 'object' && config.entry !== null && 'adr-check' in config.entry);
  if (cli === undefined) throw new Error('tsup.config.ts has no adr-check entry');
  await build({ ...cli, config: false, outDir: BUILT, clean: true, silent: true, dts: false, onSuccess: undefined });
  mkdirSync(join(BUILT, 'static'), { recursive: true });
  cpSync('web/static', join(BUILT, 'static'), { recursive: true });
  cpSync('web/openapi.json', join(BUILT, 'openapi.json'));
  // The bundle finds its version and ruleset choice in the package.json above it, as dist/ does.
  cpSync('package.json', join(BUILT, '..', 'package.json'));
  return join(BUILT, 'adr-check.js');
}

/** The server's resident set, from /proc. */
function rssOf(pid: number): number {
  try {
    const kilobytes = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kilobytes ?? 0) * 1024;
  } catch {
    return 0;
  }
}

async function startServer(folder: string, caFile: string): Promise<{ child: ChildProcess; origin: string }> {
  const command = values.source ? ['--import', 'tsx', 'live/cli.ts'] : [await buildAdrCheck()];
  const args = [...command, 'serve', '--port', '0', '--data', join(folder, 'data'), '--allow', '127.0.0.1', '--ca', caFile, '--max-running', String(values['max-running']), '--max-queued', '100', '--rate', '100000', '--max-upload', '2000000'];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const origin = await new Promise<string>((done, fail) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const found = /listening on (http:\/\/[^\s]+)/.exec(output)?.[1];
      if (found !== undefined) done(found);
    });
    child.on('exit', (code) => fail(new Error(`adr-check serve exited ${code}: ${output}`)));
  });
  return { child, origin };
}

const api = await startReferenceApi({});
const folder = mkdtempSync(join(tmpdir(), 'adr-check-bench-web-'));
writeFileSync(join(folder, 'ca.pem'), api.caPem);
const server = await startServer(folder, join(folder, 'ca.pem'));
const origin = server.origin;
const pid = server.child.pid ?? 0;
let peakRss = 0;
const sampler = setInterval(() => { peakRss = Math.max(peakRss, rssOf(pid)); }, 100);
const description = readFileSync(values.file, 'utf8');

/** Submits a check and polls its state every 20 ms: milliseconds from submission to done, and how it ended. */
async function check(body: object): Promise<{ ms: number; state: string; error?: string }> {
  const started = performance.now();
  const response = await fetch(`${origin}/api/v1/checks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 202) return { ms: performance.now() - started, state: `HTTP ${response.status}`, error: await response.text() };
  const { id } = await response.json() as { id: string };
  for (;;) {
    const state = await (await fetch(`${origin}/api/v1/checks/${id}`)).json() as { state: string; error?: string };
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
  console.log(`${label}: median ${Math.round(median(times))} ms (min ${Math.round(Math.min(...times))}, max ${Math.round(Math.max(...times))}; ${count} runs after ${warmUp} warm-up)${failures.length === 0 ? '' : `; ${failures.length} not done: ${failures[0]}`}; RSS now ${megabytes(rssOf(pid))}`);
}

async function concurrent(label: string, body: object, count: number): Promise<void> {
  peakRss = rssOf(pid);
  const started = performance.now();
  const outcomes = await Promise.all(Array.from({ length: count }, () => check(body)));
  const failures = outcomes.filter((outcome) => outcome.state !== 'done');
  console.log(`${label}: ${count} at once, ${count - failures.length} done, ${failures.length} not${failures.length === 0 ? '' : ` (${failures[0]?.state ?? ''} ${failures[0]?.error ?? ''})`}; all in ${Math.round(performance.now() - started)} ms; peak RSS ${megabytes(peakRss)}`);
}

console.log(`bench:web: Node ${process.version}, ${cpus().length} cores, load ${loadavg().map((load) => load.toFixed(1)).join(' ')}, ${values.source ? 'from source (tsx)' : 'built (tsup)'}, --max-running ${values['max-running']}, description ${values.file} (${description.length} bytes); server RSS at start ${megabytes(rssOf(pid))}`);
try {
  await sequential('static check', { description, name: 'bench.yaml' }, runs, 3);
  await sequential('live check of the reference API', { url: api.baseUrl }, Math.max(3, Math.floor(runs / 3)), 1);
  await concurrent('static checks', { description, name: 'bench.yaml' }, 50);
  await concurrent('live checks of the reference API', { url: api.baseUrl }, 8);
} finally {
  clearInterval(sampler);
  server.child.kill('SIGTERM');
  await new Promise((done) => server.child.once('exit', done));
  await api.close();
  rmSync(folder, { recursive: true, force: true });
}
