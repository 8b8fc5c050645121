import { matchesPathTemplate } from '../lib/path-template.js';

test.each([
  ['/monumenten/{id}', '/monumenten/GM-0123', true],
  ['/monumenten/{id}', '/monumenten', false],
  ['/monumenten/{id}', '/monumenten/a/b', false],
  ['/a/{x}.{y}', '/a/file.json', true],
  ['/a/{x}.{y}', '/a/file', false],
  ['/a/{x}{y}', '/a/z', false],
  ['/a/{x}{y}', '/a/zz', true],
  ['/a/b', '/a/b', true],
  ['/a/{unclosed', '/a/{unclosed', true],
])('%s fits %s: %s', (template, path, expected) => {
  expect(matchesPathTemplate(template, path)).toBe(expected);
});

test('50 variables in a row and a literal the path lacks: answered at once', () => {
  const template = `/${Array.from({ length: 50 }, (_, index) => `{v${index}}`).join('')}y`;
  expect(matchesPathTemplate(template, `/${'x'.repeat(2000)}`)).toBe(false);
  expect(matchesPathTemplate(template, `/${'x'.repeat(2000)}y`)).toBe(true);
});
