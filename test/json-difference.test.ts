import { firstDifference } from '../lib/json-difference.js';

test.each([
  [{ a: 1 }, { a: 1 }, undefined],
  [{ info: { title: 'A', version: '1' } }, { info: { title: 'B', version: '1' } }, '/info/title'],
  [{ a: [1, 2] }, { a: [1, 2, 3] }, '/a/2'],
  [{ a: 1 }, { a: 1, b: 2 }, '/b'],
  [{ 'x/y': { '~': 1 } }, { 'x/y': { '~': 2 } }, '/x~1y/~0'],
  [[1], { 0: 1 }, '/'],
])('%j vs %j: %s', (a, b, expected) => {
  expect(firstDifference(a, b)).toBe(expected);
});

test('2,000 levels deep: no stack overflow', () => {
  let a: unknown = 1;
  let b: unknown = 2;
  for (let level = 0; level < 2000; level += 1) { a = [a]; b = [b]; }
  expect(firstDifference(a, b)).toBe(`/${Array(2000).fill('0').join('/')}`);
});
