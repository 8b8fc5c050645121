import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { documentationUrl } from '../rulesets/documentation.js';
import { startHostile, servingDescription, type HostileServer } from './support/hostile-servers.js';
import { annotationsIn, errorYaml, lineOf, prepareAction, runAction, sarifErrors, STEP_TIMEOUT, warningJson, withError, workspaceWith, type ActionRun } from './support/action-runner.js';

/**
 * The GitHub Action's report (issue 24 items 6 and 7), run as a runner runs it: every annotation
 * on a line of its own when adr-check runs after Spectral, the step summary with the counts per
 * rule and severity and the live verdicts, a valid SARIF log when the lint stops early, SARIF help
 * from the rules' pages, and the project's .spectral.yaml as the default ruleset.
 */

interface Log {
  runs: Array<{
    tool: { driver: { name: string; rules?: Array<{ id: string; help?: { text: string; markdown: string }; helpUri?: string }> } };
    invocations?: Array<{ executionSuccessful: boolean; exitCode?: number; toolExecutionNotifications?: Array<{ level: string; message: { text: string } }> }>;
    results: Array<{ ruleId: string; level: string; message: { text: string }; locations?: Array<{ physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }> }>;
  }>;
}

const served = JSON.stringify(withError, null, 2);
const FILES = { 'api/v1/openapi.yaml': errorYaml, 'services/orders/orders.openapi.json': warningJson };


let base: string;
let actionPath: string;
let server: HostileServer;
let live: ActionRun;

async function run(files: Record<string, string>, inputs: Record<string, string> = {}): Promise<ActionRun> {
  return runAction(actionPath, workspaceWith(base, files), mkdtempSync(join(base, 'runner-temp-')), inputs);
}

const readLog = (result: ActionRun) => JSON.parse(readFileSync(result.outputs.sarif as string, 'utf8')) as Log;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'nlgov-adr-action-summary-'));
  actionPath = join(base, 'action');
  await prepareAction(actionPath);
  server = await startHostile(servingDescription(served));
  live = await run(FILES, { url: server.baseUrl, 'adr-check-args': '--timeout 2000 --deadline 40 --plain-http-port 1' });
}, 2 * STEP_TIMEOUT);

afterAll(async () => {
  await server?.close();
  if (base !== undefined) rmSync(base, { recursive: true, force: true });
});

describe('with url: the static lint, then adr-check', () => {
  test('every annotation is a line of its own: as many as the SARIF log has results, none glued to another', () => {
    expect(live.code).toBe(1);
    const glued = live.stdout.split('\n').filter((line) => /.::(error|warning|notice)(?: \w+=[^:]*)?::/.test(line));
    expect(glued).toEqual([]);
    const log = readLog(live);
    expect(log.runs.map((logRun) => logRun.tool.driver.name)).toEqual(['nlgov-adr', 'adr-check']);
    const annotations = annotationsIn(live.stdout);
    expect(annotations).toHaveLength(log.runs.reduce((sum, logRun) => sum + logRun.results.length, 0));
    expect(annotations.slice(0, 2).map(({ command, properties, message }) => [command, properties.title, properties.file, properties.line, message.slice(message.indexOf('%0ADocumentation: '))])).toEqual([
      ['error', '/core/semver', 'api/v1/openapi.yaml', String(lineOf(errorYaml, 'version: "1.0"')), `%0ADocumentation: ${documentationUrl('/core/semver')}`],
      ['warning', '/core/doc-openapi-contact', 'services/orders/orders.openapi.json', String(lineOf(warningJson, '"email": "info@example.nl"')), `%0ADocumentation: ${documentationUrl('/core/doc-openapi-contact')}`],
    ]);
    // The served description's finding: at its URL and line, in the message (a file annotation cannot point at a URL).
    const servedSemver = annotations.slice(2).find((annotation) => annotation.properties.title === '/core/semver');
    expect(servedSemver).toEqual({
      command: 'error',
      properties: { title: '/core/semver' },
      message: `API version is not SemVer 2.0.0: "1.0". Use major.minor.patch, for example 1.0.0.%0A${server.baseUrl}/openapi.json:${lineOf(served, '"version": "1.0"')}%0ADocumentation: ${documentationUrl('/core/semver')}`,
    });
    expect(annotations.slice(2).map((annotation) => annotation.properties.title)).toContain('/core/transport/tls');
  });

  test('the step summary: the verdict, the counts per rule and severity with the failing rule first, the live verdict per check', () => {
    const semverPage = documentationUrl('/core/semver');
    const contactPage = documentationUrl('/core/doc-openapi-contact');
    expect(live.summary).toContain([
      '### Static lint: 2 findings in 2 files (1 error, 1 warning, 0 info, 0 hints)',
      '',
      '1 finding at or above fail\\-severity error.',
      '',
      '| Rule | Severity | Findings | Files |',
      '|---|---|---:|---|',
      `| [\\/core\\/semver](${semverPage}) | error | 1 | api\\/v1\\/openapi\\.yaml |`,
      `| [\\/core\\/doc\\-openapi\\-contact](${contactPage}) | warn | 1 | services\\/orders\\/orders\\.openapi\\.json |`,
    ].join('\n'));
    expect(live.summary).toMatch(/^\*\*Failed\*\* \(exit code 1\): 1 static finding at or above error; \d+ live checks? failed; 1 finding at or above error in the served description\.$/m);
    const escapedUrl = server.baseUrl.replace(/[:/.]/g, (character) => `\\${character}`);
    expect(live.summary).toMatch(new RegExp(`^### Live checks of ${escapedUrl.replace(/\\/g, '\\\\').replace(/\./g, '\\.')}: \\d+ fail, `, 'm'));
    const rows = live.summary.split('\n').filter((line) => /^\| [^[]/.test(line) && /\| (fail|not judged|warn|skip|pass) \|/.test(line));
    expect(rows[0]).toMatch(/^\| \\\/core\\\/\S+ \| fail \| \S/);
    expect(rows).toContainEqual(expect.stringMatching(/^\| \\\/core\\\/transport\\\/tls \| fail \| /));
    const verdicts = rows.map((row) => /\| (fail|not judged|warn|skip|pass) \|/.exec(row)?.[1]);
    expect(verdicts).toEqual([...verdicts].sort((a, b) => ['fail', 'not judged', 'warn', 'skip', 'pass'].indexOf(a ?? '') - ['fail', 'not judged', 'warn', 'skip', 'pass'].indexOf(b ?? '')));
    expect(live.summary).toContain(`The served description ${escapedUrl}\\/openapi\\.json: 1 finding (1 error, 0 warnings, 0 info, 0 hints); the SARIF log has them.`);
    expect(live.stdout).toContain('nlgov-adr: 2 static findings (1 error, 1 warning, 0 info, 0 hints) in 2 files; the step summary counts them per rule\n');
  });

  test('the SARIF log is valid; our rules carry help from their pages; the served finding is at the URL and line', () => {
    const log = readLog(live);
    expect(sarifErrors(log)).toEqual([]);
    for (const logRun of log.runs) {
      const semver = logRun.tool.driver.rules?.find((rule) => rule.id === '/core/semver');
      expect(semver?.help?.markdown).toBe(`**Why it matters:** The major version in the URI and the full version in \`API-Version\` both come from \`info.version\`; that only works when it is an exact semantic version.\n\n**How to fix:** Set \`info.version\` to a SemVer 2.0.0 version such as \`1.2.0\`.\n\n[The rule's page](${semver?.helpUri ?? ''})`);
      expect(semver?.help?.text).toMatch(/^Why it matters: The major version in the URI and the full version in API-Version both come from info\.version; .+\nHow to fix: Set info\.version to a SemVer 2\.0\.0 version such as 1\.2\.0\.\nMore: https:\/\//);
    }
    const servedSemver = log.runs[1]?.results.find((result) => result.ruleId === '/core/semver');
    expect(servedSemver?.locations?.[0]?.physicalLocation).toEqual({ artifactLocation: { uri: `${server.baseUrl}/openapi.json` }, region: { startLine: lineOf(served, '"version": "1.0"') } });
  });
});

describe('when the lint stops early, the SARIF log to upload is still there and valid, and says why', () => {
  test.each([
    ['no file matches', { files: 'nothing/**/*.yaml' }, 2, 'No files found to lint. Please check your file path and extension and try again'],
    ['a module set that does not exist', { ruleset: 'nlgov-adr/bogus' }, 2, 'nlgov-adr-lint: unknown module set nlgov-adr/bogus'],
    ['a severity that does not exist', { 'fail-severity': 'bogus' }, 1, 'Invalid values: Argument: fail-severity, Given: "bogus", Choices: "error", "warn", "info", "hint"'],
  ])('%s', async (_, inputs, code, failure) => {
    const result = await run(FILES, inputs);
    expect(result.code).toBe(code);
    expect(existsSync(result.outputs.sarif as string)).toBe(true);
    const log = readLog(result);
    expect(sarifErrors(log)).toEqual([]);
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0]?.tool.driver.name).toBe('nlgov-adr');
    expect(log.runs[0]?.results).toEqual([]);
    expect(log.runs[0]?.invocations).toEqual([{ executionSuccessful: false, exitCode: code, toolExecutionNotifications: [{ level: 'error', message: { text: expect.stringContaining(failure) } }] }]);
    expect(result.summary).toContain(`**Failed** (exit code ${code}): the static lint did not run.\n\n### Static lint: did not run\n\n`);
    expect(result.summary).toContain(failure.replace(/[!-/:-@[-`{-~]/g, (character) => `\\${character}`));
    expect(annotationsIn(result.stdout)).toEqual([]);
  }, STEP_TIMEOUT);
});

test("ruleset: by default the project's .spectral.yaml (a rule turned off stays off); given, the module set", async () => {
  const files = { 'api/v1/openapi.yaml': errorYaml, '.spectral.yaml': 'extends: nlgov-adr\nrules:\n  "/core/semver": off\n' };
  const [byDefault, given] = [await run(files), await run(files, { ruleset: 'nlgov-adr' })];
  expect([byDefault.code, annotationsIn(byDefault.stdout)]).toEqual([0, []]);
  expect(byDefault.summary).toContain('**Passed.**');
  expect(given.code).toBe(1);
  expect(annotationsIn(given.stdout).map((annotation) => annotation.properties.title)).toEqual(['/core/semver']);
}, 2 * STEP_TIMEOUT);

describe('the summary of untrusted text (tools/action-summary.ts)', () => {
  const hostile = 'x|y</td><script>alert(1)</script>[link](javascript:alert(1)) **bold** @team\n# heading \u001b[2J\u202e';

  test('each cell printable, on one line and with every Markdown character escaped; the tables bounded', async () => {
    const { markdownCell, stepSummary, MAX_RULE_ROWS } = await import('../tools/action-summary.js');
    expect(markdownCell(hostile)).toBe(String.raw`x\|y\<\/td\>\<script\>alert\(1\)\<\/script\>\[link\]\(javascript\:alert\(1\)\) \*\*bold\*\* \@team \# heading \\x1b\[2J\\u202e`);
    const findings = Array.from({ length: 500 }, (_, index) => ({ code: `${hostile}${index}`, severity: 'error' as const, file: `${hostile}.yaml` }));
    const summary = stepSummary({ exitStatus: 1, failSeverity: 'error', lint: { findings, files: 1 }, pages: new Map([[`${hostile}0`, 'https://example.nl/a page)(x']]) });
    expect(summary).not.toMatch(/(?<!\\)<script|\u001b|\u202e|(?<!\\)\]\(javascript/);
    const rows = summary.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Rule'));
    expect(rows).toHaveLength(MAX_RULE_ROWS);
    for (const row of rows) expect(row.match(/(?<!\\)\|/g)).toHaveLength(5);
    expect(rows[0]).toMatch(/^\| \[x\\\|y.*0\]\(https:\/\/example\.nl\/a%20page%29%28x\) \| error \| 1 \| /);
    expect(summary).toContain(`${500 - MAX_RULE_ROWS} more rules with ${500 - MAX_RULE_ROWS} findings not shown: the SARIF log has every finding.`);
    expect(summary.length).toBeLessThan(60_000);
  });
});
