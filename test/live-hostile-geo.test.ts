import { startHostile, type HostileServer } from './support/hostile-servers.js';
import { adrCheck, expectBounded, jsonReport, startOffTarget, type JsonReport, type Outcome } from './support/adr-check-process.js';
import { pathTemplateFlood } from './support/hostile-geo.js';

/**
 * adr-check against servers that attack its path matcher and its geospatial checks: each run ends
 * within --deadline + 5 s (tsx's start included), within 512 MB plus the lint's 256 MB, sends
 * nothing off the target, and gives a clear verdict where the old code stalled, ran out of memory
 * or reported an internal error.
 */
const DEADLINE = 10;
const LINT_MEMORY_MB = 256;
const PEAK_MB = 512 + LINT_MEMORY_MB;

const closers: Array<() => Promise<void>> = [];

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

async function hostile(server: Promise<HostileServer>): Promise<HostileServer> {
  const started = await server;
  closers.push(() => started.close());
  return started;
}

/** adr-check as a user runs it, JSON out; asserts the bounds every scenario shares. */
async function check(server: HostileServer, extra: string[] = []): Promise<{ outcome: Outcome; report: JsonReport }> {
  const offTarget = await startOffTarget(server.port);
  closers.push(() => offTarget.close());
  const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--lint-memory', String(LINT_MEMORY_MB), '--max-body', '6000000', ...extra], { deadline: DEADLINE, killAfterMs: 25_000 });
  expectBounded(outcome, DEADLINE);
  expect(outcome.seconds).toBeLessThan(DEADLINE + 5);
  expect(outcome.peakMb).toBeLessThan(PEAK_MB);
  expect(offTarget.requests).toEqual([]);
  expect(outcome.stderr).not.toMatch(/internal error/);
  return { outcome, report: jsonReport(outcome) };
}

function result(report: JsonReport, code: string): JsonReport['results'][number] | undefined {
  return report.results.find((candidate) => candidate.code === code);
}

test('6. 1,025 path templates of 61 to 91 pieces and 25 concrete paths of 7,800 characters (0.2 MB): matched within the deadline, each to its own template', async () => {
  const server = await hostile(startHostile(pathTemplateFlood(130)));
  const { report } = await check(server);
  // Each concrete path was matched to its template (GET and DELETE): the 405's Allow lacks DELETE on all 25.
  const methods = result(report, '/core/http-methods');
  expect(methods?.verdict).toBe('fail');
  expect(methods?.details).toHaveLength(25);
  for (const detail of methods?.details ?? []) expect(detail).toMatch(/^TRACE \/x{1990}.*\(cut at 2000 of 78\d\d characters\)$/);
  expect(server.requests.filter((request) => request.method === 'TRACE').map((request) => request.url.length).sort((a, b) => a - b)).toEqual([3, ...Array.from({ length: 25 }, (_, index) => (index < 10 ? 7806 : 7807))]);
}, 60_000);
