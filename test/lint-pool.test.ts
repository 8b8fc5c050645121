import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LintOutcome, ReferenceFetcher } from '../live/lint/run-lint.js';

/**
 * The lint workers of one process (the web checker's) are kept warm between jobs, with the
 * guarantees of a fresh worker: a job out of memory or time ends its worker and the next job gets
 * a new one, concurrent jobs of different rulesets each lint with their own, and the CLI (one run)
 * still exits as soon as its run ends.
 */

/**
 * Threads started in this process so far: Node numbers worker threads in order, so a probe
 * worker's threadId counts every one before it (the probes themselves taken out). A lint worker
 * started from source may take more than one (tsx's loader hooks run on a thread of their own):
 * ids per lint worker are measured first, on two lints of heap limits no other lint uses.
 */
let probes = 0;
function threadsStarted(): number {
  const probe = new Worker('', { eval: true });
  probes += 1;
  void probe.terminate();
  return probe.threadId - probes;
}

let threadsPerWorker = 0;
const workersStarted = () => threadsStarted() / threadsPerWorker;

type Lint = (text: string, source: string, budget: { deadline: number; memoryMb: number }, fetch: ReferenceFetcher, options?: unknown) => Promise<LintOutcome>;
let lintInWorker: Lint;
const folder = mkdtempSync(join(tmpdir(), 'lint-pool-'));
const refuse: ReferenceFetcher = async (url) => ({ reason: `not fetched: ${url}` });

afterAll(async () => {
  const pool = await import('../live/lint/pool.js').catch(() => undefined);
  await pool?.lintWorkers.close();
  rmSync(folder, { recursive: true, force: true });
});

const MEMORY_MB = 256;

/** A description with one finding of the core module set: a path key with a trailing slash. */
const DESCRIPTION = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Pool', version: '1.0.0', description: 'Pool test API.', contact: { name: 'Team', email: 'team@example.nl', url: 'https://example.nl' } },
  servers: [{ url: 'https://api.example.nl/v1' }],
  paths: { '/items/': { get: { operationId: 'listItems', description: 'Items.', responses: { 200: { description: 'OK' } } } } },
});

const lint = (text = DESCRIPTION, options: { deadlineMs?: number; memoryMb?: number; ruleset?: unknown } = {}) =>
  lintInWorker(text, 'https://api.example.nl/v1/openapi.json', { deadline: Date.now() + (options.deadlineMs ?? 50_000), memoryMb: options.memoryMb ?? MEMORY_MB }, refuse, options.ruleset === undefined ? {} : { ruleset: options.ruleset });

beforeAll(async () => {
  ({ lintInWorker } = await import('../live/lint/run-lint.js') as unknown as { lintInWorker: Lint });
  await lint(DESCRIPTION, { memoryMb: 200 });
  const before = threadsStarted();
  await lint(DESCRIPTION, { memoryMb: 210 });
  threadsPerWorker = threadsStarted() - before;
  expect(threadsPerWorker).toBeGreaterThan(0);
}, 120_000);

const codes = (outcome: LintOutcome) => [...new Set(outcome.findings.map((finding) => finding.code))].sort();

test('lints in one process are done by one worker, with the same findings', async () => {
  const before = workersStarted();
  const first = await lint();
  const second = await lint();
  const third = await lint();
  expect([first.status, second.status, third.status]).toEqual(['done', 'done', 'done']);
  expect(codes(first)).toContain('/core/no-trailing-slash');
  expect([second.findings, third.findings]).toEqual([first.findings, first.findings]);
  expect(workersStarted() - before).toBe(1);
}, 120_000);

test('what one lint compiles does not decide the next lint on the same worker: a schema $id validated anew', async () => {
  const withId = (type: string) => JSON.stringify({ openapi: '3.1.0', info: { title: 'Ids', version: '1.0.0' }, paths: {}, components: { schemas: { S: { $id: 'https://example.nl/schemas/s', type, example: 5 } } } });
  const exampleFindings = (outcome: LintOutcome) => outcome.findings.filter((finding) => finding.code === 'oas3-valid-schema-example').map((finding) => [finding.severity, finding.path, finding.message]);
  const before = workersStarted();
  const text = await lint(withId('string'));
  const integer = await lint(withId('integer'));
  const textAgain = await lint(withId('string'));
  expect(exampleFindings(text)).toEqual([['error', 'components.schemas.S.example', '"example" property type must be string']]);
  expect(exampleFindings(integer)).toEqual([]);
  expect(exampleFindings(textAgain)).toEqual(exampleFindings(text));
  expect(workersStarted() - before).toBeLessThanOrEqual(1);
}, 120_000);

test('a lint past its deadline ends its worker: the next lint gets a fresh one and is done', async () => {
  await lint();
  const before = workersStarted();
  const late = await lint(DESCRIPTION, { deadlineMs: 1 });
  expect([late.status, late.reason]).toEqual(['timeout', 'the static lint did not finish within its time budget (0.0 s, the rest of --deadline)']);
  const next = await lint();
  expect([next.status, codes(next).includes('/core/no-trailing-slash')]).toEqual(['done', true]);
  expect(workersStarted() - before).toBe(1);
}, 120_000);

test('a lint out of memory ends its worker: the next lint gets a fresh one and is done', async () => {
  await lint();
  const before = workersStarted();
  // Many small schemas: within every document limit, far beyond the heap once Spectral resolves and walks them.
  const schemas = Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`S${index}`, { type: 'object', properties: Object.fromEntries(Array.from({ length: 20 }, (__, field) => [`f${field}`, { type: 'string', example: `v${field}` }])) }]));
  const huge = JSON.stringify({ ...JSON.parse(DESCRIPTION), components: { schemas } });
  const heavy = await lint(huge);
  expect([heavy.status, heavy.reason]).toEqual(['out-of-memory', `the static lint ran out of its memory budget (${MEMORY_MB} MB, --lint-memory)`]);
  const next = await lint();
  expect([next.status, codes(next).includes('/core/no-trailing-slash')]).toEqual(['done', true]);
  expect(workersStarted() - before).toBe(1);
}, 180_000);

test('two lints at once with different rulesets each lint with their own', async () => {
  const rulesetFile = join(folder, 'own-ruleset.yaml');
  writeFileSync(rulesetFile, [
    'rules:',
    '  pool-title-not-pool:',
    '    description: The title is not Pool.',
    '    message: Title is Pool.',
    '    severity: warn',
    '    given: $.info.title',
    '    then:',
    '      function: pattern',
    '      functionOptions:',
    '        notMatch: ^Pool$',
    '',
  ].join('\n'));
  const [own, bundled] = await Promise.all([
    lint(DESCRIPTION, { ruleset: { kind: 'file', file: rulesetFile } }),
    lint(DESCRIPTION, { ruleset: { kind: 'module-set', name: 'nlgov-adr/core' } }),
  ]);
  expect([own.status, bundled.status]).toEqual(['done', 'done']);
  expect(own.findings.map((finding) => [finding.code, finding.severity, finding.path, finding.message])).toEqual([['pool-title-not-pool', 'warn', 'info.title', 'Title is Pool.']]);
  expect(codes(bundled)).toContain('/core/no-trailing-slash');
  expect(codes(bundled)).not.toContain('pool-title-not-pool');
}, 120_000);

test('adr-check --static exits as soon as its run ends: no kept worker holds it', () => {
  const file = join(folder, 'openapi.json');
  writeFileSync(file, DESCRIPTION);
  // Killed after 60 s: a process a kept worker held open would never end on its own.
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'live/cli.ts', '--static', file, '--format', 'json'], { cwd: process.cwd(), encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' });
  expect([run.signal, run.status]).toEqual([null, 1]);
  const report = JSON.parse(run.stdout) as { lint: { status: string }; staticFindings: Array<{ code: string }> };
  expect(report.lint.status).toBe('done');
  expect(report.staticFindings.map((finding) => finding.code)).toContain('/core/no-trailing-slash');
}, 90_000);
