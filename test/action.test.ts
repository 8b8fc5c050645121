import { createServer } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { nlgovRules } from '../rulesets/modules.js';
import { documentationUrl } from '../rulesets/documentation.js';
import { ruleHelp } from '../live/rule-help.js';
import { annotations, merged, type SarifLog, type SarifRun } from '../tools/action-report.js';
import { annotationsIn, errorYaml, lineOf, prepareAction, runAction as runActionAt, sarifErrors, STEP_TIMEOUT, warningJson, workspaceWith as workspaceUnder, type Action, type ActionRun } from './support/action-runner.js';

/**
 * The GitHub Action (action.yml) run as a runner runs a composite action (test/support/action-runner.ts):
 * each step in bash with the runner's variables, from a clone of the work tree whose dist/ is built
 * with the repository's node_modules linked in, so the action's install step finds it built.
 */
const action = parse(readFileSync('action.yml', 'utf8')) as Action;
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { name: string; version: string; homepage: string };

let base: string;
let actionPath: string;

function runAction(workspace: string, inputs: Record<string, string> = {}): Promise<ActionRun> {
  return runActionAt(actionPath, workspace, mkdtempSync(join(base, 'runner-temp-')), inputs);
}

/** A workspace (the checked-out repository) with these files. */
function workspaceWith(files: Record<string, string>): string {
  return workspaceUnder(base, files);
}

// The descriptions: one with an error (in YAML), one with only a warning (in JSON), one with an
// error where the action never looks (node_modules), and an error in a file that is no description by name.
const FILES = {
  'api/v1/openapi.yaml': errorYaml,
  'services/orders/orders.openapi.json': warningJson,
  'node_modules/some-package/openapi.yaml': errorYaml,
  'docs/notes.yaml': errorYaml,
};

let defaults: ActionRun;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'nlgov-adr-action-'));
  actionPath = join(base, 'action');
  await prepareAction(actionPath);
  defaults = await runAction(workspaceWith(FILES));
}, 2 * STEP_TIMEOUT);

afterAll(() => {
  if (base !== undefined) rmSync(base, { recursive: true, force: true });
});

test('the action is a composite action whose every step runs in bash', () => {
  expect(action.runs.using).toBe('composite');
  expect(Object.keys(action.inputs)).toEqual(['files', 'ruleset', 'fail-severity', 'url', 'adr-check-args']);
  expect(Object.keys(action.outputs)).toEqual(['sarif']);
});

test("the README's example uses the action's inputs and output", () => {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('### GitHub Actions\n'), readme.indexOf('### From code\n'));
  const workflow = parse(/```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '') as { steps: Array<{ uses?: string; id?: string; with?: Record<string, string> }> };
  const step = workflow.steps.find((candidate) => candidate.uses?.startsWith('nlgov-adr/nlgov-adr@') === true);
  expect(Object.keys(step?.with ?? {})).toEqual(Object.keys(action.inputs));
  expect(workflow.steps.at(-1)?.with?.sarif_file).toBe(`\${{ steps.${step?.id ?? ''}.outputs.sarif }}`);
});

test('with the defaults: an annotation per finding in the descriptions, none from node_modules or other YAML, and it fails on the error', () => {
  expect(defaults.code).toBe(1);
  expect(annotationsIn(defaults.stdout).map(({ command, properties, message }) => ({ command, title: properties.title, file: properties.file, line: properties.line, documentation: message.slice(message.indexOf('%0ADocumentation: ')) }))).toEqual([
    { command: 'error', title: '/core/semver', file: 'api/v1/openapi.yaml', line: String(lineOf(errorYaml, 'version: "1.0"')), documentation: `%0ADocumentation: ${documentationUrl('/core/semver')}` },
    { command: 'warning', title: '/core/doc-openapi-contact', file: 'services/orders/orders.openapi.json', line: String(lineOf(warningJson, '"email": "info@example.nl"')), documentation: `%0ADocumentation: ${documentationUrl('/core/doc-openapi-contact')}` },
  ]);
  expect(annotationsIn(defaults.stdout)[0]?.message).toMatch(/^API version is not SemVer 2\.0\.0: "1\.0"\./);
});

test('the SARIF log is valid SARIF 2.1.0, made by nlgov-adr of this version, every rule with its description and page, one result per finding', () => {
  const log = JSON.parse(readFileSync(defaults.outputs.sarif as string, 'utf8')) as SarifLog;
  expect(sarifErrors(log)).toEqual([]);
  expect(log.runs).toHaveLength(1);
  const run = log.runs[0] as SarifRun;
  expect(run.tool.driver).toMatchObject({ name: 'nlgov-adr', version: manifest.version, semanticVersion: manifest.version, informationUri: manifest.homepage });
  expect(run.tool.extensions).toEqual([expect.objectContaining({ name: 'spectral' })]);
  const rules = run.tool.driver.rules ?? [];
  expect(rules.filter((rule) => !(rule.helpUri?.startsWith('https://') === true && (rule.shortDescription?.text ?? '') !== ''))).toEqual([]);
  for (const [code, rule] of Object.entries(nlgovRules)) {
    expect(rules.find((descriptor) => descriptor.id === code)).toEqual({ id: code, shortDescription: { text: rule.description }, helpUri: documentationUrl(code), help: ruleHelp(code, documentationUrl(code)) });
  }
  expect((run.results ?? []).map((result) => [result.ruleId, result.level, result.locations?.[0]?.physicalLocation?.artifactLocation?.uri, result.locations?.[0]?.physicalLocation?.region?.startLine])).toEqual([
    ['/core/semver', 'error', 'api/v1/openapi.yaml', Number(lineOf(errorYaml, 'version: "1.0"'))],
    ['/core/doc-openapi-contact', 'warning', 'services/orders/orders.openapi.json', Number(lineOf(warningJson, '"email": "info@example.nl"'))],
  ]);
});

test('fail-severity: a warning passes at error and fails at warn; the SARIF log is written either way', async () => {
  const workspace = workspaceWith({ 'services/orders/orders.openapi.json': warningJson });
  const atError = await runAction(workspace);
  const atWarn = await runAction(workspace, { 'fail-severity': 'warn' });
  expect([atError.code, atWarn.code]).toEqual([0, 1]);
  for (const result of [atError, atWarn]) {
    expect(annotationsIn(result.stdout).map((annotation) => [annotation.command, annotation.properties.title])).toEqual([['warning', '/core/doc-openapi-contact']]);
    expect(existsSync(result.outputs.sarif as string)).toBe(true);
  }
}, 2 * STEP_TIMEOUT);

test('ruleset: another module set lints with its rules only', async () => {
  const result = await runAction(workspaceWith({ 'api/v1/openapi.yaml': errorYaml }), { ruleset: 'nlgov-adr/oauth' });
  expect(result.code).toBe(0);
  expect(annotationsIn(result.stdout)).toEqual([]);
}, STEP_TIMEOUT);

test('files: globs separated by spaces; one that matches nothing fails with Spectral\'s message and an empty SARIF log that says why', async () => {
  const workspace = workspaceWith(FILES);
  const some = await runAction(workspace, { files: 'services/**/*.json docs/*.yaml' });
  expect(annotationsIn(some.stdout).map((annotation) => [annotation.properties.title, annotation.properties.file])).toEqual([
    ['/core/semver', 'docs/notes.yaml'],
    ['/core/doc-openapi-contact', 'services/orders/orders.openapi.json'],
  ]);
  const none = await runAction(workspace, { files: 'nothing/**/openapi.yaml' });
  expect(none.code).toBe(2);
  expect(none.stdout + none.stderr).toContain('No files found to lint');
  // The README's upload step reads outputs.sarif after a failure too: a valid log with no
  // results, the failure as a notification of the lint's invocation.
  expect(existsSync(none.outputs.sarif as string)).toBe(true);
  const log = JSON.parse(readFileSync(none.outputs.sarif as string, 'utf8')) as SarifLog;
  expect(sarifErrors(log)).toEqual([]);
  expect(log.runs.map((run) => [run.tool.driver.name, run.results])).toEqual([['nlgov-adr', []]]);
  expect(log.runs[0]?.invocations).toEqual([{ executionSuccessful: false, exitCode: 2, toolExecutionNotifications: [{ level: 'error', message: { text: expect.stringContaining('No files found to lint') } }] }]);
}, 2 * STEP_TIMEOUT);

test('url: adr-check runs against it (here nothing answers: it says so and the action fails), the static SARIF log is still written', async () => {
  const port = await new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
  const result = await runAction(workspaceWith({ 'services/orders/orders.openapi.json': warningJson }), { url: `http://127.0.0.1:${port}/v1`, 'adr-check-args': "--timeout 2000 --header 'X-Team: API team'" });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`adr-check: cannot reach http://127.0.0.1:${port}/v1/openapi.json: ECONNREFUSED`);
  const log = JSON.parse(readFileSync(result.outputs.sarif as string, 'utf8')) as SarifLog;
  expect(log.runs.map((run) => run.tool.driver.name)).toEqual(['nlgov-adr']);
}, STEP_TIMEOUT);

describe("tools/action-report.ts on adr-check's SARIF (the live run, which needs a server CI does not start)", () => {
  const live: SarifLog = {
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'adr-check', version: manifest.version, rules: [{ id: '/core/transport/security-headers' }, { id: 'nlgov:live, odd' }] } },
      results: [
        { ruleId: '/core/transport/security-headers', level: 'warning', message: { text: 'security headers missing on 3 of 3 requests\n\u001b[2J 100%' } },
        { ruleId: 'nlgov:live, odd', level: 'error', message: { text: 'fails\u202e' } },
        { level: 'note', message: { text: 'no rule' } },
      ],
    }],
  };

  test('one annotation per result, what the server sent made printable and the workflow syntax escaped', () => {
    expect(annotations(live)).toEqual([
      '::warning title=/core/transport/security-headers::security headers missing on 3 of 3 requests\\x0a\\x1b[2J 100%25',
      '::error title=nlgov%3Alive%2C odd::fails\\u202e',
      '::notice::no rule',
    ]);
  });

  test('merged with the static run: one valid log, the static run as nlgov-adr, the live run as it was', () => {
    const staticLog: SarifLog = { version: '2.1.0', runs: [{ tool: { driver: { name: 'spectral', version: '6.16.2', informationUri: 'https://stoplight.io', rules: [] } }, results: [] }] };
    const log = merged(staticLog, live);
    expect(sarifErrors(log)).toEqual([]);
    expect(sarifErrors({ ...log, runs: [{ tool: { driver: {} } }] })).toEqual(["/runs/0/tool/driver must have required property 'name'"]);
    expect(log.runs.map((run) => run.tool)).toEqual([
      { driver: { name: 'nlgov-adr', version: manifest.version, semanticVersion: manifest.version, informationUri: manifest.homepage, rules: [] }, extensions: [{ name: 'spectral', version: '6.16.2', informationUri: 'https://stoplight.io' }] },
      live.runs[0]?.tool,
    ]);
  });
});
