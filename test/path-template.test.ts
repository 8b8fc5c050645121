import { matchesPathTemplate, matchPathKey, MAX_MATCH_WORK, MAX_MATCHED_PATH_LENGTH, MAX_SEGMENT_PIECES } from '../lib/path-template.js';

test.each([
  ['/monumenten/{id}', '/monumenten/GM-0123', true],
  ['/monumenten/{id}', '/monumenten', false],
  ['/monumenten/{id}', '/monumenten/a/b', false],
  ['/a/{x}.{y}', '/a/file.json', true],
  ['/a/{x}.{y}', '/a/file', false],
  ['/a/{x}.{y}', '/a/.json', false],
  ['/a/{x}.{y}', '/a/file.', false],
  ['/a/{x}.{y}', '/a/archive.tar.gz', true],
  ['/a/{x}{y}', '/a/z', false],
  ['/a/{x}{y}', '/a/zz', true],
  ['/a/v{x}', '/a/v', false],
  ['/a/v{x}', '/a/v1', true],
  ['/a/{x}ab{y}', '/a/aab', false],
  ['/a/{x}ab{y}', '/a/aabb', true],
  ['/a/{x}aa{y}a', '/a/aaaa', false],
  ['/a/{x}aa{y}a', '/a/baaba', true],
  ['/a/ab{x}ba', '/a/aba', false],
  ['/a/ab{x}ba', '/a/abxba', true],
  ['/a/b', '/a/b', true],
  ['/a/b', '/a/c', false],
  ['/a/{unclosed', '/a/{unclosed', true],
  ['/a/{unclosed', '/a/x', false],
  ['/{a}/{b}', '//x', false],
])('%s fits %s: %s', (template, path, expected) => {
  expect(matchesPathTemplate(template, path)).toBe(expected);
});

/** The definition, as a regular expression: fine for the short strings below, exponential on long ones. */
function byRegex(template: string, path: string): boolean {
  const source = template.split(/\{[^}]*\}/).map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+');
  return new RegExp(`^${source}$`).test(path);
}

test('the greedy matcher agrees with the definition on every short template and path over a small alphabet', () => {
  const sequences = (alphabet: string[], maxLength: number): string[] => {
    const found = [''];
    for (let index = 0; found[index] !== undefined; index += 1) {
      const prefix = found[index] as string;
      if (prefix.split(/(?=a|b|\{)/).filter(Boolean).length < maxLength) found.push(...alphabet.map((piece) => prefix + piece));
    }
    return found;
  };
  const templates = sequences(['a', 'b', '{v}'], 4).slice(1);
  const texts = sequences(['a', 'b'], 7);
  let compared = 0;
  const disagreements: string[] = [];
  for (const template of templates) {
    for (const text of texts) {
      if (matchesPathTemplate(`/x/${template}`, `/x/${text}`) !== byRegex(`/x/${template}`, `/x/${text}`)) disagreements.push(`${template} ${text}`);
      compared += 1;
    }
  }
  expect(disagreements).toEqual([]);
  expect(compared).toBeGreaterThan(30_000);
});

test('50 variables in a row and a literal the path lacks: answered at once', () => {
  const template = `/${Array.from({ length: 50 }, (_, index) => `{v${index}}`).join('')}y`;
  expect(matchesPathTemplate(template, `/${'x'.repeat(2000)}`)).toBe(false);
  expect(matchesPathTemplate(template, `/${'x'.repeat(2000)}y`)).toBe(true);
});

test(`a segment of more than ${MAX_SEGMENT_PIECES} pieces is never matched; one of ${MAX_SEGMENT_PIECES} is`, () => {
  const variables = (count: number) => Array.from({ length: count }, () => '{v}').join('');
  expect(matchesPathTemplate(`/${variables(MAX_SEGMENT_PIECES - 1)}y`, `/${'x'.repeat(100)}y`)).toBe(true);
  expect(matchesPathTemplate(`/${variables(MAX_SEGMENT_PIECES)}y`, `/${'x'.repeat(100)}y`)).toBe(false);
});

test(`a concrete path longer than ${MAX_MATCHED_PATH_LENGTH} characters matches a literal key only`, () => {
  const long = `/${'x'.repeat(MAX_MATCHED_PATH_LENGTH)}`;
  expect(matchesPathTemplate('/{id}', long)).toBe(false);
  expect(matchesPathTemplate('/{id}', long.slice(0, MAX_MATCHED_PATH_LENGTH))).toBe(true);
  expect(matchPathKey({ '/{id}': {}, [long]: { get: {} } }, long)).toBe(long);
  expect(matchPathKey({ '/{id}': {} }, long)).toBeUndefined();
});

test('matchPathKey: a literal key wins over a template that fits too; among templates the first declared', () => {
  const paths = { '/a/{id}': {}, '/a/{name}.json': {}, '/a/me': {}, '/b/{x}/c': {} };
  expect(matchPathKey(paths, '/a/me')).toBe('/a/me');
  expect(matchPathKey(paths, '/a/you.json')).toBe('/a/{id}');
  expect(matchPathKey(paths, '/b/1/c')).toBe('/b/{x}/c');
  expect(matchPathKey(paths, '/b/1/d')).toBeUndefined();
  expect(matchPathKey(paths, '/constructor')).toBeUndefined();
  expect(matchPathKey({ '/{x}': undefined, '/{y}': {} }, '/1')).toBe('/{y}');
});

test('1,025 templates of 61 pieces against 25 paths of 7,982 characters (the description that held the main thread 29 s): well under a second', () => {
  const variables = Array.from({ length: 60 }, () => '{v}').join('');
  const paths: Record<string, unknown> = {};
  for (let index = 0; index < 1000; index += 1) paths[`/${variables}z${index}`] = {};
  for (let index = 0; index < 25; index += 1) paths[`/${variables}a${index}`] = { get: {} };
  const started = process.hrtime.bigint();
  for (let round = 0; round < 4; round += 1) {
    for (let index = 0; index < 25; index += 1) expect(matchPathKey(paths, `/${'x'.repeat(7_980)}a${index}`)).toBe(`/${variables}a${index}`);
  }
  expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1000);
});

test(`matchPathKey gives up after about ${MAX_MATCH_WORK.toLocaleString('en')} characters examined: "not matched", not a stalled thread`, () => {
  const path = `/${'x'.repeat(7999)}`;
  const templatesWithinBudget = Math.floor(MAX_MATCH_WORK / (path.length + 1));
  const decoys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`/{v}q${index}{w}`, {}]));
  expect(matchPathKey({ ...decoys(templatesWithinBudget - 1), '/{id}': {} }, path)).toBe('/{id}');
  const started = process.hrtime.bigint();
  expect(matchPathKey({ ...decoys(templatesWithinBudget), '/{id}': {} }, path)).toBeUndefined();
  expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2000);
});
