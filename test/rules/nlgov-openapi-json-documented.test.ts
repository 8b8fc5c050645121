import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = 'nlgov:openapi-json-documented';

test('a description that does not describe /openapi.json gets an info at paths', async () => {
  const doc = conformantDocument();
  delete doc.paths['/openapi.json'];
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['info', 'paths', 'Path is not described: /openapi.json. Describe GET /openapi.json, the mandatory publication of this description.'],
  ]);
});

test('a description with /openapi.json passes', async () => {
  expect(await findingsOf(CODE, conformantDocument())).toEqual([]);
});
