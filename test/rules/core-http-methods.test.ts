import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/core/http-methods';
const operation = { responses: { '204': { description: 'Ok' } } };

test('head, options and trace give one finding each, at the operation', async () => {
  const doc = conformantDocument();
  Object.assign(doc.paths['/monumenten'], { head: operation, options: operation, trace: operation });
  const advice = 'Use only GET, POST, PUT, PATCH and DELETE; the server handles HEAD and OPTIONS itself.';
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.head', `Operation uses a method outside the standard: HEAD. ${advice}`],
    ['error', 'paths./monumenten.options', `Operation uses a method outside the standard: OPTIONS. ${advice}`],
    ['error', 'paths./monumenten.trace', `Operation uses a method outside the standard: TRACE. ${advice}`],
  ]);
});

test('get, post, put, patch and delete with path parameters and a summary pass', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].summary = 'Monumenten';
  doc.paths['/monumenten'].parameters = [];
  expect(await findingsOf(CODE, doc)).toEqual([]);
});
