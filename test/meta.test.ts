import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ruleset from '../ruleset.js';
import { nlgovRules as coreRules } from '../rulesets/modules.js';
import { PACKAGE_VERSION, documentationUrl, ruleSlug } from '../rulesets/documentation.js';
import { renderRuleTable, withRuleTable } from '../tools/rule-table.js';

const root = process.cwd();
const PAGE_HEADINGS = ['## What it checks', '## Why', '## Failing example', '## Passing example', '## Turning it off'];
const published = (ruleset as { rules: Record<string, unknown> }).rules;

describe.each(Object.entries(coreRules))('%s', (code, rule) => {
  test('is published with a description, an explicit severity and its {{error}} message', () => {
    expect(published[code]).toBe(rule);
    expect(rule.description.length).toBeGreaterThan(20);
    expect(['error', 'warn', 'info', 'hint']).toContain(rule.severity);
    expect(rule.message).toBe('{{error}}');
  });

  test('links to its own docs page, which has the fixed shape', () => {
    expect(rule.documentationUrl).toBe(documentationUrl(code));
    const page = join(root, 'docs', 'rules', `${ruleSlug(code)}.md`);
    expect(existsSync(page)).toBe(true);
    const text = readFileSync(page, 'utf8');
    expect(text.startsWith(`# ${code}\n`)).toBe(true);
    expect(text).toContain(`Severity: \`${rule.severity}\``);
    const positions = PAGE_HEADINGS.map((heading) => text.indexOf(`\n${heading}\n`));
    expect(positions.every((position) => position > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(text).toMatch(/## Why\n+> /);
  });

  test('has a test file named after it, with a failing and a passing case', () => {
    const file = join(root, 'test', 'rules', `${ruleSlug(code)}.test.ts`);
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(`const CODE = '${code}'`);
    expect(text).toMatch(/\.toEqual\(\[\]\)/);
    expect(text).toMatch(/\.toEqual\(\[\s*\[\s*'(error|warn|info|hint)'/);
  });
});

test('the documentation links point at the version in package.json', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  expect(PACKAGE_VERSION).toBe(manifest.version);
});

test('the README rule table is generated from the ruleset (npm run docs:rules)', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  expect(withRuleTable(readme, renderRuleTable())).toBe(readme);
  for (const code of Object.keys(coreRules)) expect(readme).toContain(`[\`${code}\`](docs/rules/${ruleSlug(code)}.md)`);
});

test('the README starts with the two commands that work on a fresh machine', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const commands = [...readme.matchAll(/```sh\n(.+)\n```/g)].map((match) => match[1]);
  expect(commands.slice(0, 2)).toEqual([
    'npm ci && npm run build && npx spectral lint examples/monumenten-api.yaml',
    'tools/system-packages.sh && npm ci && npm run build && npm test',
  ]);
});

test('.ci/run runs the README test command: its four steps, in order', () => {
  const commandLines = readFileSync(join(root, '.ci', 'run'), 'utf8')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'));
  const lineOf = (step: string) => commandLines.findIndex((line) => line.includes(step));
  const steps = ['tools/system-packages.sh', 'npm ci', 'npm run build', 'npm test'].map(lineOf);
  expect(steps.every((line) => line >= 0)).toBe(true);
  expect([...steps].sort((a, b) => a - b)).toEqual(steps);
});

test('the README names every rule that reads enum, const, default and example values, and does not say none does', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const where = readme.slice(readme.indexOf('## Where findings point'));
  // The rule functions that read the values a declaration pins down (lib/declared-values.ts) ...
  const readers = readdirSync(join(root, 'functions'))
    .filter((file) => readFileSync(join(root, 'functions', file), 'utf8').includes("from '../lib/declared-values.js'"))
    .map((file) => file.replace(/\.ts$/, ''));
  // ... and the rules that call them, as the rulesets write them: `rule('<code>', { ... function: <name> ... })`.
  const rulesets = readdirSync(join(root, 'rulesets')).map((file) => readFileSync(join(root, 'rulesets', file), 'utf8')).join('\n');
  const codes = [...rulesets.matchAll(/rule\('([^']+)', \{([\s\S]*?)\n {2}\}\)/g)]
    .filter(([, , body]) => readers.some((name) => new RegExp(`function: ${name}\\b`).test(body ?? '')))
    .map(([, code]) => code as string);
  expect(codes).toEqual(expect.arrayContaining(['nlgov:crs-uri', 'nlgov:deprecated-geo', '/core/publish-openapi', '/signing/payload', '/signing/message']));
  for (const code of codes) expect(where).toContain(`\`${code}\``);
  expect(readme).not.toMatch(/no rule looks inside them|never look inside example values/);
});
