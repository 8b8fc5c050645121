import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/core/http-methods';
const operation = { responses: { '204': { description: 'Ok' } } };

test('head, options and trace give one finding each, at the operation', async () => {
  const doc = conformantDocument();
  Object.assign(doc.paths['/monumenten'], { head: operation, options: operation, trace: operation });
  const advice = 'Use only GET, POST, PUT, PATCH and DELETE;';
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.head', `Operation uses a method outside the standard: HEAD. ${advice} the server answers HEAD itself, as GET without a body.`],
    ['error', 'paths./monumenten.options', `Operation uses a method outside the standard: OPTIONS. ${advice} the server answers OPTIONS itself (Allow, CORS preflight).`],
    ['error', 'paths./monumenten.trace', `Operation uses a method outside the standard: TRACE. ${advice} remove TRACE, which the API need not offer.`],
  ]);
});

test('get, post, put, patch and delete with path parameters and a summary pass', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].summary = 'Monumenten';
  doc.paths['/monumenten'].parameters = [];
  expect(await findingsOf(CODE, doc)).toEqual([]);
});
