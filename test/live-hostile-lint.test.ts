import { description, servingDescription, startHostile, type HostileServer } from './support/hostile-servers.js';
import { adrCheck, expectBounded, jsonReport, startOffTarget, type OffTarget, type Outcome } from './support/adr-check-process.js';
import { billionLaughs, dribblingYaml, jsonWide, largeSchema, longKeyFindings, referencing, referencingSlow, servingYaml, yamlDeep, yamlKeys, yamlManyMaps } from './support/hostile-lint.js';

/**
 * Issue 21, items 5, 9 and 10: every document adr-check parses or lints of what a server sends is
 * parsed on a worker thread, within the deadline and the same limits, and the findings made of
 * it are bounded. Each run gives --lint-memory 256; the bound on its peak is 512 MB plus that.
 */
const LINT_MEMORY = ['--lint-memory', '256'];
const PEAK_MB = 512 + 256;

const closers: Array<() => Promise<void>> = [];
afterAll(async () => { await Promise.all(closers.map((close) => close())); });

async function hostile(server: Promise<HostileServer>): Promise<HostileServer> {
  const started = await server;
  closers.push(() => started.close());
  return started;
}

/** Within --deadline + 5 s of wall time (tsx's start included), within the memory bound, no stack trace. */
function expectWithin(outcome: Outcome, deadline: number): void {
  expectBounded(outcome, deadline);
  expect(outcome.seconds).toBeLessThan(deadline + 5);
  expect(outcome.peakMb).toBeLessThan(PEAK_MB);
}

function publishOpenapi(outcome: Outcome) {
  return jsonReport(outcome).results.find((result) => result.code === '/core/publish-openapi');
}

describe('5. a served /openapi.yaml is parsed and compared on a worker, within a share of the deadline', () => {
  test('100,000 keys in one mapping (1.4 MB): not judged, and the run ends within its deadline', async () => {
    const server = await hostile(startHostile(servingYaml(yamlKeys(100_000))));
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--max-body', '5000000', ...LINT_MEMORY]);
    expectWithin(outcome, 6);
    const check = publishOpenapi(outcome);
    expect(check?.verdict).toBe('error');
    // Parsed within its budget it is refused for its width; on a slower machine its parse runs out of time first.
    expect(check?.summary).toMatch(/^not judged: \/openapi\.yaml was not compared with \/openapi\.json \((it has an object of 100,000 members \(at the root\); at most 25,000 are read|its parse did not finish within its time budget \(\d+\.\d s, a quarter of the rest of --deadline\))\)$/);
    expect(check?.details).toEqual(['/openapi.json is published as the standard requires']);
  }, 40000);

  test('3.6 MB of mappings each within the limits: its parse runs out of its time, the checks after it still run', async () => {
    const server = await hostile(startHostile(servingYaml(yamlManyMaps(300, 1000))));
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--max-body', '5000000', ...LINT_MEMORY]);
    expectWithin(outcome, 6);
    const check = publishOpenapi(outcome);
    expect(check?.verdict).toBe('error');
    expect(check?.summary).toMatch(/^not judged: \/openapi\.yaml was not compared with \/openapi\.json \(its parse did not finish within its time budget \(\d+\.\d s, a quarter of the rest of --deadline\)\)$/);
    expect(outcome.stdout).not.toContain('overall deadline passed');
  }, 40000);

  test('a YAML billion laughs at /openapi.yaml: not judged, nothing expanded', async () => {
    const server = await hostile(startHostile(servingYaml(billionLaughs())));
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', ...LINT_MEMORY]);
    expectWithin(outcome, 6);
    expect(publishOpenapi(outcome)?.summary).toBe('not judged: /openapi.yaml was not compared with /openapi.json (it grows by more than 100,000 nodes through its YAML aliases (*e and others))');
  }, 40000);

  test('a /openapi.yaml that never ends: not judged, not failed', async () => {
    const server = await hostile(startHostile(dribblingYaml()));
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', ...LINT_MEMORY]);
    expectWithin(outcome, 6);
    const check = publishOpenapi(outcome);
    expect(check?.verdict).toBe('error');
    expect(check?.summary).toBe('not judged: /openapi.yaml got no answer (no complete response within 1500 ms)');
  }, 40000);

  test('a /openapi.yaml that differs is still named at its first difference', async () => {
    const server = await hostile(startHostile(servingYaml('openapi: 3.0.3\ninfo: {title: Other, version: 1.0.0}\npaths: {}\n')));
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', ...LINT_MEMORY]);
    expect(publishOpenapi(outcome)?.details).toEqual(['/openapi.yaml differs from /openapi.json, first at /info/title']);
  }, 40000);
});

describe('9. each referenced document is held to the description\'s limits, and all of them to a byte budget', () => {
  test('a 342-byte YAML billion laughs (the issue\'s had 401), a YAML nested 5,000 deep and a JSON object of 100,000 members: one finding each, the lint done', async () => {
    const laughs = billionLaughs();
    expect(Buffer.byteLength(laughs)).toBe(342);
    let offTarget: OffTarget | undefined;
    const server = await hostile(startHostile(referencing({
      'lol.yaml': { text: laughs, type: 'application/yaml' },
      'deep.yaml': { text: yamlDeep(5000), type: 'application/yaml' },
      'wide.json': { text: jsonWide(100_000), type: 'application/json' },
    }, () => ({ OtherPort: { $ref: `${offTarget?.otherPort ?? ''}/v1/lol.yaml` }, OtherAddress: { $ref: `${offTarget?.otherAddress ?? ''}/v1/lol.yaml` } }))));
    offTarget = await startOffTarget(server.port);
    closers.push(() => (offTarget as OffTarget).close());
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--max-body', '5000000', ...LINT_MEMORY], { deadline: 10 });
    expectWithin(outcome, 10);
    const report = jsonReport(outcome);
    expect(report.lint.status).toBe('done');
    const refused = report.staticFindings.filter((finding) => / not read, | \(not read, /.test(finding.message));
    expect(refused.map((finding) => [finding.code, finding.path, finding.message.replace(/\. Its \$ref stays unresolved: .*$/, '')])).toEqual([
      ['/core/doc-openapi', 'components.schemas.S0.$ref', `Referenced file cannot be fetched (not read, it grows by more than 100,000 nodes through its YAML aliases (*e and others)): ${server.baseUrl}/lol.yaml`],
      ['/core/doc-openapi', 'components.schemas.S1.$ref', `Referenced file cannot be fetched (not read, it nests more than 1000 levels deep (1001 at 0.0.0.0.0.0.0.0.0.0.0.0)): ${server.baseUrl}/deep.yaml`],
      ['/core/doc-openapi', 'components.schemas.S2.$ref', `Referenced file cannot be fetched (not read, it has an object of 100,000 members (at the root); at most 25,000 are read): ${server.baseUrl}/wide.json`],
    ]);
    // The references to other origins are one finding each too, /core/doc-openapi's, with no invalid-ref beside them.
    expect(report.staticFindings.filter((finding) => finding.code === 'invalid-ref')).toEqual([]);
    expect(report.staticFindings.filter((finding) => finding.code === '/core/doc-openapi' && / is not the origin of the description /.test(finding.message))).toHaveLength(2);
    expect(offTarget.requests).toEqual([]);
  }, 40000);

  test('60 references to 3.6 MB documents: two are read, the rest refused by the budget, each once, and few are fetched', async () => {
    const schema = largeSchema(3_600_000);
    const documents = Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`doc${index}.json`, { text: schema, type: 'application/json' }]));
    const server = await hostile(startHostile(referencing(documents)));
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--max-body', '5000000', ...LINT_MEMORY], { deadline: 20, killAfterMs: 40000 });
    expectWithin(outcome, 20);
    const report = jsonReport(outcome);
    expect(report.lint.status).toBe('done');
    const overBudget = report.staticFindings.filter((finding) => finding.message.includes('not read, the documents referenced are over 10,000,000 bytes together'));
    expect(overBudget.map((finding) => finding.code)).toEqual(Array(58).fill('/core/doc-openapi'));
    expect(overBudget[0]?.message).toMatch(new RegExp(`^Referenced file cannot be fetched \\(not read, the documents referenced are over 10,000,000 bytes together \\(the budget of all of them\\)\\): ${server.baseUrl}/doc\\d+\\.json\\.`));
    // Four at a time: once the budget is spent, no more are asked for.
    expect(server.requests.filter((request) => /^\/v1\/doc\d+\.json$/.test(request.url)).length).toBeLessThanOrEqual(6);
  }, 60000);

  test('40 references to documents that answer a byte a second: fetched within half the lint\'s time, the lint done', async () => {
    const server = await hostile(startHostile(referencingSlow(40)));
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', ...LINT_MEMORY], { deadline: 10 });
    expectWithin(outcome, 10);
    const report = jsonReport(outcome);
    expect(report.lint.status).toBe('done');
    const unresolved = report.staticFindings.filter((finding) => finding.code === '/core/doc-openapi' && finding.message.startsWith('Referenced file cannot be fetched'));
    expect(unresolved).toHaveLength(40);
    // Those asked for before half the lint's time are cut by the request timeout, the others never asked for.
    const reasons = unresolved.map((finding) => /^Referenced file cannot be fetched \((.*)\): http/.exec(finding.message)?.[1]);
    expect(new Set(reasons)).toContain('not read, the time for referenced documents (half the lint\'s) is spent');
    for (const reason of reasons) expect(['GET answered no complete response within 1500 ms', 'not read, the time for referenced documents (half the lint\'s) is spent']).toContain(reason);
    expect(server.requests.filter((request) => request.url.includes('/slow')).length).toBeLessThan(40);
  }, 40000);

  test('150 references to small documents: 100 are fetched, the rest refused, the live checks keep their requests', async () => {
    const documents = Object.fromEntries(Array.from({ length: 150 }, (_, index) => [`small${index}.json`, { text: '{"type":"string"}', type: 'application/json' }]));
    const server = await hostile(startHostile(referencing(documents)));
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', ...LINT_MEMORY], { deadline: 15 });
    expectWithin(outcome, 15);
    const report = jsonReport(outcome);
    expect(report.lint.status).toBe('done');
    expect(server.requests.filter((request) => /^\/v1\/small\d+\.json$/.test(request.url))).toHaveLength(100);
    const refused = report.staticFindings.filter((finding) => finding.message.includes('(not read, the description references more than 100 documents (the budget of all of them))'));
    expect(refused).toHaveLength(50);
    expect(outcome.stdout).not.toContain('request budget');
  }, 40000);
});

describe('10. findings are bounded in their strings, number and size', () => {
  test('an 8,000-character schema name in 1,001 findings: each path cut with its length, the report small', async () => {
    const server = await hostile(startHostile(servingDescription(longKeyFindings(8000, 1001))));
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--max-body', '2000000', ...LINT_MEMORY], { deadline: 15 });
    expectWithin(outcome, 15);
    expect(outcome.stdout.length).toBeLessThan(5_000_000);
    const report = jsonReport(outcome);
    expect(report.lint.status).toBe('done');
    const camelCase = report.staticFindings.filter((finding) => finding.code === 'nlgov:property-names-camel-case');
    expect(camelCase.length).toBeGreaterThan(0);
    for (const finding of report.staticFindings) {
      for (const text of [finding.path, finding.message, finding.source ?? '']) expect(text.length).toBeLessThanOrEqual(1000 + '… (1,000,000 characters)'.length);
    }
    expect(camelCase[0]?.path).toBe(`components.schemas.S${'a'.repeat(199)}… (8,001 characters).properties.snake_case_`);
  }, 40000);

  test.each([200_000, 560_000])('a %i-character schema name: the description is refused with one finding, and there is a report', async (length) => {
    const server = await hostile(startHostile(servingDescription(longKeyFindings(length, 1001))));
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--max-body', '2000000', ...LINT_MEMORY]);
    expectWithin(outcome, 6);
    expect(outcome.stdout.length).toBeLessThan(100_000);
    const report = jsonReport(outcome);
    expect(report.lint.status).toBe('too-deep');
    expect(report.staticFindings).toEqual([expect.objectContaining({ code: 'adr-check/description-not-linted', severity: 'error', path: '' })]);
    // The longest path runs through the schema name to the longest property's type.
    const shown = `components.schemas.S${'a'.repeat(99)}… (${(length + 1).toLocaleString('en-US')} characters).properties.snake_case_${'x'.repeat(89)}… (1,011 characters).type`;
    expect(report.staticFindings[0]?.message).toBe(`Description is not linted: it has a path of ${(length + 1048).toLocaleString('en-US')} characters (${shown}); at most 10,000 are read. Keep it within the limits in docs/live/static-lint.md: YAML anchors used sparingly, large objects split into documents of their own and $ref'd.`);
  }, 40000);

  test('a message that quotes 5,000 characters of the server is cut with its length', async () => {
    const name = `snake_${'x'.repeat(5000)}`;
    const server = await hostile(startHostile(servingDescription(JSON.stringify(description({ components: { schemas: { Thing: { type: 'object', properties: { [name]: { type: 'string' } } } } } })))));
    const report = jsonReport(await adrCheck(server.baseUrl, ['--format', 'json', ...LINT_MEMORY]));
    const finding = report.staticFindings.find((candidate) => candidate.code === 'nlgov:property-names-camel-case');
    expect(finding?.message).toMatch(/^Property name is not lowerCamelCase: snake_x+… \(\d{2},\d{3} characters\)$/);
    expect(finding?.message.length).toBeLessThanOrEqual(1000 + '… (10,000 characters)'.length);
    expect(finding?.path).toBe(`components.schemas.Thing.properties.snake_${'x'.repeat(194)}… (5,006 characters)`);
  }, 40000);
});
