import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { documentationUrl } from '../rulesets/documentation.js';
import { conformantDocument } from './fixtures/conformant.js';
import { sarifErrors } from './support/action-runner.js';
import { startHostile, servingDescription, type HostileServer } from './support/hostile-servers.js';
import { runCommand } from './support/work-tree-clone.js';

/**
 * adr-check's static findings in every CI format (issue 24 item 8), as a user runs it in their
 * repository: `adr-check --static api/v1/openapi.yaml` in its root, and a live run. Each format
 * carries every finding with its file and line: relative to the working directory in a static
 * run (a $ref'd file's finding in that file), the description's URL in a live run.
 */

const CLI = resolve('live/cli.ts');
const TSX = resolve('node_modules/tsx/dist/loader.mjs');
const TIMEOUT = 120_000;

interface Outcome { code: number; stdout: string; stderr: string }

async function adrCheckIn(cwd: string, args: string[]): Promise<Outcome> {
  return runCommand(process.execPath, ['--import', TSX, CLI, ...args], { cwd, timeout: TIMEOUT });
}

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((line) => line.includes(needle)) + 1;

// A description with an error and a warning, and a schema in another file with a warning.
const description = conformantDocument();
description.info.version = '1.0';
description.info.contact.email = 'info@example.nl';
const monument = description.components.schemas.Monument;
monument.properties.bouw_jaar = { type: 'integer' };
description.components.schemas.Monument = { $ref: 'schemas.yaml#/Monument' };
const descriptionYaml = stringify(description);
const schemasYaml = stringify({ Monument: monument });

const SEMVER_MESSAGE = 'API version is not SemVer 2.0.0: "1.0". Use major.minor.patch, for example 1.0.0.';
const CONTACT_MESSAGE = 'Contact email is a generic organisation-wide mailbox: info@example.nl. Give the mailbox of the team that runs the API.';
const CAMEL_MESSAGE = 'Property name is not lowerCamelCase: bouw_jaar. Rename it in lowerCamelCase, for example bouwJaar.';

let repository: string;
const EXPECTED = () => [
  { code: '/core/semver', severity: 'error', level: 'error', command: 'error', path: 'info.version', file: 'api/v1/openapi.yaml', line: lineOf(descriptionYaml, 'version: "1.0"'), message: SEMVER_MESSAGE },
  { code: '/core/doc-openapi-contact', severity: 'warn', level: 'warning', command: 'warning', path: 'info.contact.email', file: 'api/v1/openapi.yaml', line: lineOf(descriptionYaml, 'email: info@example.nl'), message: CONTACT_MESSAGE },
  { code: 'nlgov:property-names-camel-case', severity: 'warn', level: 'warning', command: 'warning', path: 'Monument.properties.bouw_jaar', file: 'api/v1/schemas.yaml', line: lineOf(schemasYaml, 'bouw_jaar:'), message: CAMEL_MESSAGE },
];

beforeAll(() => {
  repository = mkdtempSync(join(tmpdir(), 'adr-check-static-formats-'));
  mkdirSync(join(repository, 'api/v1'), { recursive: true });
  writeFileSync(join(repository, 'api/v1/openapi.yaml'), descriptionYaml);
  writeFileSync(join(repository, 'api/v1/schemas.yaml'), schemasYaml);
});

afterAll(() => {
  if (repository !== undefined) rmSync(repository, { recursive: true, force: true });
});

const staticRun = (format: string) => adrCheckIn(repository, ['--static', 'api/v1/openapi.yaml', '--format', format]);

describe('adr-check --static api/v1/openapi.yaml', () => {
  test('json: every finding with its file and line', async () => {
    const outcome = await staticRun('json');
    expect(outcome.code).toBe(1);
    const report = JSON.parse(outcome.stdout) as { staticFindings: Array<{ code: string; severity: string; path: string; source: string; line: number }> };
    expect(report.staticFindings.map(({ code, severity, path, source, line }) => ({ code, severity, path, source, line }))).toEqual(EXPECTED().map(({ code, severity, path, file, line }) => ({ code, severity, path, source: join(repository, file), line })));
  }, TIMEOUT);

  test('text: every finding at file:line', async () => {
    const outcome = await staticRun('text');
    expect(outcome.code).toBe(1);
    const lines = outcome.stdout.split('\n').filter((line) => /^ {8}(error|warn |info |hint ) /.test(line));
    expect(lines).toEqual(EXPECTED().map((finding) => `        ${finding.severity.padEnd(5)} ${finding.code}  ${finding.file}:${finding.line}  ${finding.path}  ${finding.message}`));
  }, TIMEOUT);

  test('github-actions: the notice, then an annotation per finding at its file (relative) and line', async () => {
    const outcome = await staticRun('github-actions');
    expect(outcome.code).toBe(1);
    expect(outcome.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^::notice title=adr-check::api\/v1\/openapi\.yaml checked by nlgov-adr \S+ \(ruleset /),
      ...EXPECTED().map((finding) => `::${finding.command} title=${finding.code.replace(/:/g, '%3A')},file=${finding.file},line=${finding.line}::${finding.message}%0ADocumentation: ${documentationUrl(finding.code)}`),
    ]);
  }, TIMEOUT);

  test('junit: a test case per finding with file and line; errors and warnings fail', async () => {
    const outcome = await staticRun('junit');
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toMatch(/^<testsuites name="adr-check api\/v1\/openapi\.yaml" tests="3" failures="3" errors="0" skipped="0" time="[\d.]+">$/m);
    expect(outcome.stdout).toContain('\n  <testsuite name="adr-check static api/v1/openapi.yaml" tests="3" failures="3" errors="0" skipped="0">\n');
    const cases = [...outcome.stdout.matchAll(/<testcase classname="([^"]*)" name="([^"]*)" file="([^"]*)" line="(\d+)"><failure type="(\w+)" message="([^"]*)">([^<]*)<\/failure><\/testcase>/g)].map((match) => match.slice(1));
    const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    expect(cases).toEqual(EXPECTED().map((finding) => [finding.file, `${finding.code} at ${finding.path}`, finding.file, String(finding.line), finding.severity, xml(finding.message), `${finding.file}:${finding.line} ${finding.path}\n${xml(finding.message)}`]));
    expect(outcome.stdout).not.toContain('<testsuite name="adr-check api/v1/openapi.yaml"');
  }, TIMEOUT);

  test('sarif: valid, every finding at its file (a relative URI) and line', async () => {
    const outcome = await staticRun('sarif');
    expect(outcome.code).toBe(1);
    const log = JSON.parse(outcome.stdout) as { runs: Array<{ results: Array<{ ruleId: string; level: string; message: { text: string }; locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } }; logicalLocations?: Array<{ fullyQualifiedName: string }> }> }> }> };
    expect(sarifErrors(log)).toEqual([]);
    expect(log.runs[0]?.results.map((result) => [result.ruleId, result.level, result.locations[0]?.physicalLocation, result.locations[0]?.logicalLocations?.[0]?.fullyQualifiedName])).toEqual(EXPECTED().map((finding) => [finding.code, finding.level, { artifactLocation: { uri: finding.file }, region: { startLine: finding.line } }, finding.path]));
  }, TIMEOUT);
});

test('a description outside the working directory: a file:// URI in SARIF, its path and line in the annotation\'s message', async () => {
  const elsewhere = mkdtempSync(join(tmpdir(), 'adr-check-elsewhere-'));
  try {
    const text = stringify({ ...conformantDocument(), info: { ...conformantDocument().info, version: '1.0' } });
    const file = join(elsewhere, 'open api.yaml');
    writeFileSync(file, text);
    const semverLine = lineOf(text, 'version: "1.0"');
    const sarif = await adrCheckIn(repository, ['--static', file, '--format', 'sarif']);
    const log = JSON.parse(sarif.stdout) as { runs: Array<{ results: Array<{ ruleId: string; locations: Array<{ physicalLocation: unknown }> }> }> };
    expect(sarifErrors(log)).toEqual([]);
    expect(log.runs[0]?.results.map((result) => [result.ruleId, result.locations[0]?.physicalLocation])).toEqual([['/core/semver', { artifactLocation: { uri: `file://${elsewhere}/open%20api.yaml` }, region: { startLine: semverLine } }]]);
    const annotations = await adrCheckIn(repository, ['--static', file, '--format', 'github-actions']);
    expect(annotations.stdout.split('\n')[1]).toBe(`::error title=/core/semver::${SEMVER_MESSAGE}%0A${file}:${semverLine}%0ADocumentation: ${documentationUrl('/core/semver')}`);
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }
}, 2 * TIMEOUT);

describe('a live run: the findings are in the description fetched from the URL', () => {
  const served = conformantDocument();
  served.info.version = '1.0';
  const servedJson = JSON.stringify(served, null, 2);
  let server: HostileServer;
  let documentUrl: string;
  const line = lineOf(servedJson, '"version": "1.0"');
  const liveRun = (format: string) => adrCheckIn(repository, [server.baseUrl, '--format', format, '--timeout', '1500', '--deadline', '30', '--plain-http-port', '1']);

  beforeAll(async () => {
    server = await startHostile(servingDescription(servedJson));
    documentUrl = `${server.baseUrl}/openapi.json`;
  });

  afterAll(async () => {
    await server?.close();
  });

  test('github-actions: the static finding is annotated, at the URL and line', async () => {
    const outcome = await liveRun('github-actions');
    expect(outcome.code).toBe(1);
    const semver = outcome.stdout.split('\n').filter((annotation) => annotation.startsWith('::error title=/core/semver::'));
    expect(semver).toEqual([`::error title=/core/semver::${SEMVER_MESSAGE}%0A${documentUrl}:${line}%0ADocumentation: ${documentationUrl('/core/semver')}`]);
  }, TIMEOUT);

  test('sarif: the static finding at the URL (artifactLocation) and line', async () => {
    const outcome = await liveRun('sarif');
    const log = JSON.parse(outcome.stdout) as { runs: Array<{ results: Array<{ ruleId: string; locations: Array<{ physicalLocation: unknown }> }> }> };
    expect(sarifErrors(log)).toEqual([]);
    expect(log.runs[0]?.results.filter((result) => result.ruleId === '/core/semver').map((result) => result.locations[0]?.physicalLocation)).toEqual([{ artifactLocation: { uri: documentUrl }, region: { startLine: line } }]);
  }, TIMEOUT);

  test('junit and text: the static finding at URL:line', async () => {
    const junit = await liveRun('junit');
    expect(junit.stdout).toMatch(/<testsuite name="adr-check http:\/\/127\.0\.0\.1:\d+\/v1" tests="\d+" failures="\d+"/);
    expect(junit.stdout).toContain(`\n  <testsuite name="adr-check static ${documentUrl}" tests="1" failures="1" errors="0" skipped="0">\n`);
    expect(junit.stdout).toContain(`<testcase classname="${documentUrl}" name="/core/semver at info.version" file="${documentUrl}" line="${line}"><failure type="error" message="${SEMVER_MESSAGE.replace(/"/g, '&quot;')}">${documentUrl}:${line} info.version\n`);
    const text = await liveRun('text');
    expect(text.stdout).toContain(`        error /core/semver  ${documentUrl}:${line}  info.version  ${SEMVER_MESSAGE}\n`);
  }, 2 * TIMEOUT);
});
