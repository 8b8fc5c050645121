import { conformantDocument } from './fixtures/conformant.js';
import { lint } from './harness.js';

test('the base fixture that rule tests mutate has no finding at all', async () => {
  expect(await lint(conformantDocument())).toEqual([]);
});
