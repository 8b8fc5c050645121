import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { main } from '../live/main.js';
import { ruleHelp } from '../live/rule-help.js';

/** adr-check's own SARIF: valid 2.1.0, every rule described and linked, the static findings as results with their place. */
const schema = JSON.parse(readFileSync('node_modules/@microsoft/sarif-multitool-ts/assets/sarif-2.1.0.schema.json', 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({ allErrors: true, strict: false });
(ajvFormats as unknown as (instance: Ajv2020) => void)(ajv);
const validate = ajv.compile(schema);

interface Log { runs: Array<{ tool: { driver: { name: string; version: string; rules: Array<{ id: string; shortDescription?: { text: string }; helpUri?: string }> } }; results: Array<{ ruleId: string; level: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }> }> }> }

test('a static run of the non-conformant example as SARIF', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'adr-check-sarif-'));
  try {
    const output = join(folder, 'report.sarif');
    expect(await main(['--static', 'examples/non-conformant-api.yaml', '--format', 'sarif', '--output', output], {})).toBe(1);
    const log = JSON.parse(readFileSync(output, 'utf8')) as Log;
    expect(validate(log) ? [] : validate.errors).toEqual([]);
    const run = log.runs[0];
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect([run?.tool.driver.name, run?.tool.driver.version]).toEqual(['adr-check', version]);
    const rules = run?.tool.driver.rules ?? [];
    expect(rules.length).toBeGreaterThan(30);
    for (const rule of rules) {
      expect(rule.shortDescription?.text).toEqual(expect.stringMatching(/\S/));
      expect(rule.shortDescription?.text).not.toBe(rule.id);
      expect(rule.helpUri).toMatch(/^https:\/\//);
    }
    const semverPage = `https://github.com/nlgov-adr/nlgov-adr/blob/v${version}/docs/rules/core-semver.md`;
    expect(rules.find((rule) => rule.id === '/core/semver')).toEqual({ id: '/core/semver', shortDescription: { text: 'info.version is a strict SemVer 2.0.0 version.' }, helpUri: semverPage, help: ruleHelp('/core/semver', semverPage) });
    const semver = run?.results.find((result) => result.ruleId === '/core/semver');
    expect(semver?.level).toBe('error');
    expect(semver?.locations[0]?.physicalLocation.artifactLocation.uri).toMatch(/examples\/non-conformant-api\.yaml$/);
    expect(semver?.locations[0]?.physicalLocation.region?.startLine).toBeGreaterThan(1);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}, 60000);
