import { render } from '../live/formats.js';
import type { CheckResult, Evidence, Report } from '../live/report.js';

/** Messages of the report that must say what is true of the report itself (issue 22, "messages"). */

function heavyEvidence(index: number): Evidence {
  const headers = Object.fromEntries(Array.from({ length: 40 }, (_, header) => [`x-filler-${header}`, `${index}`.repeat(2000)]));
  return { method: 'GET', url: `https://api.example.nl/v1/items/${index}`, requestHeaders: {}, status: 500, headers };
}

function reportWith(result: CheckResult): Report {
  return {
    tool: { name: 'nlgov-adr', version: '0.0.0', ruleset: 'nlgov-adr' },
    target: 'https://api.example.nl/v1',
    startedAt: '2026-11-27T00:00:00Z',
    durationMs: 1,
    requests: 20,
    results: [result],
    staticFindings: [],
    lint: { status: 'not-run', omitted: 0, durationMs: 0 },
    notices: [],
  };
}

const options = { colour: false, verbose: false, secrets: [] };

test('evidence the size budget left out is not said to be in --format json', () => {
  const result: CheckResult = { code: '/core/http-response-code', verdict: 'fail', summary: 'x', details: [], evidence: Array.from({ length: 20 }, (_, index) => heavyEvidence(index)) };
  const json = JSON.parse(render(reportWith(result), 'json', options)) as Report;
  const kept = json.results[0]?.evidence.length ?? 0;
  expect(kept).toBeGreaterThan(5);
  expect(kept).toBeLessThan(20);
  expect(json.results[0]?.evidenceOmitted).toBe(20 - kept);
  const text = render(reportWith(result), 'text', options);
  expect(text).not.toContain('--format json has them all');
  expect(text).toContain(`(${kept - 5} more requests in --format json; ${20 - kept} more requests left out of every format: the report's size is bounded)`);
});

test('evidence the report kept whole is said to be in --format json', () => {
  const evidence = Array.from({ length: 8 }, (_, index): Evidence => ({ method: 'GET', url: `https://api.example.nl/v1/items/${index}`, requestHeaders: {}, status: 500, headers: {} }));
  const text = render(reportWith({ code: '/core/http-response-code', verdict: 'fail', summary: 'x', details: [], evidence }), 'text', options);
  expect(text).toContain('(3 more requests: --format json has them all)');
});
