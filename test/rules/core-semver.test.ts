import { conformantDocument } from '../fixtures/conformant.js';
import { FIXTURES, findingsOf, summary } from '../harness.js';

const CODE = '/core/semver';

test.each(['1.2', 'v1.2.3', '01.2.3', 'undefined', '1.0.1_incorrect', ' 1.2.3', '=1.2.3', '1.2.3-'])('%p is not SemVer', async (version) => {
  const doc = conformantDocument();
  doc.info.version = version;
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'info.version', `API version is not SemVer 2.0.0: ${JSON.stringify(version)}. Use major.minor.patch, for example 1.0.0.`],
  ]);
});

test('a number is not a version string', async () => {
  const doc = conformantDocument();
  doc.info.version = 1;
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'info.version', 'API version is not SemVer 2.0.0: 1 (a number). Use major.minor.patch, for example 1.0.0.'],
  ]);
});

test.each([['1.10', '1.1'], ['1.0', '1'], ['2.50', '2.5']])('an unquoted YAML version %s is shown as written, and as the number it is read as', async (written, read) => {
  const yaml = `openapi: 3.0.3\ninfo:\n  title: Monumenten\n  version: ${written}\npaths: {}\n`;
  expect(summary(await findingsOf(CODE, yaml, `${FIXTURES}/inline.yaml`))).toEqual([
    ['error', 'info.version', `API version is not SemVer 2.0.0: ${written} (a number, read as ${read}). Use major.minor.patch, for example 1.0.0.`],
  ]);
});

test.each(['1.0.0', '2.0.0-alpha13', '1.0.1-alpha.1', '1.2.3+build.5', '10.20.30'])('%p is SemVer', async (version) => {
  const doc = conformantDocument();
  doc.info.version = version;
  doc.servers = [{ url: `https://api.example.nl/v${version.split('.')[0]}` }];
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('a document without info gets the finding at the root', async () => {
  const doc = conformantDocument();
  delete doc.info;
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', '', 'API version is missing. Add info.version in SemVer 2.0.0, for example 1.0.0.'],
  ]);
});
