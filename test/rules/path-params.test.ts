import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, lint, summary } from '../harness.js';

/*
 * spectral:oas's path-params as the ruleset runs it (rulesets/oas.ts): a parameter $ref that did
 * not resolve is one finding (invalid-ref), not followed by "Operation must define parameter" for
 * the path parameter it would have defined (issue 22 item 11).
 */
const CODE = 'path-params';

/** `/monumenten/{id}` whose `id` is declared by `parameter` (at the operation, or at the path item). */
function withPathParameter(parameter: object, at: 'operation' | 'pathItem' = 'operation'): Record<string, any> {
  const doc = conformantDocument();
  const item = structuredClone(doc.paths['/monumenten']);
  item.get.operationId = 'getMonument';
  item.get.parameters = at === 'operation' ? [parameter] : [];
  if (at === 'pathItem') item.parameters = [parameter];
  doc.paths['/monumenten/{id}'] = item;
  return doc;
}

const idParameter = { name: 'id', in: 'path', required: true, description: 'Het monument.', schema: { type: 'string' } };

test.each([
  ['a file that cannot be read', './does-not-exist.yaml#/id', 'operation'],
  ['a pointer to nothing', '#/components/parameters/Bestaat-niet', 'operation'],
  ['a file that cannot be read, at the path item', './does-not-exist.yaml#/id', 'pathItem'],
] as const)('a parameter $ref to %s: invalid-ref, and no path-params', async (_what, ref, at) => {
  const findings = await lint(withPathParameter({ $ref: ref }, at));
  expect(findings.filter((finding) => finding.code === CODE)).toEqual([]);
  expect(findings.filter((finding) => finding.code === 'invalid-ref')).toHaveLength(1);
});

test('a local $ref through components to a file that cannot be read: no path-params either', async () => {
  const doc = withPathParameter({ $ref: '#/components/parameters/Id' });
  doc.components.parameters = { Id: { $ref: './does-not-exist.yaml#/id' } };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('a path parameter no $ref could define is still missing, beside an unread $ref elsewhere', async () => {
  const doc = withPathParameter(idParameter);
  doc.paths['/foto/{fotoId}'] = structuredClone(doc.paths['/monumenten']);
  doc.paths['/foto/{fotoId}'].get.operationId = 'getFoto';
  doc.paths['/foto/{fotoId}'].get.parameters = [];
  doc.paths['/monumenten/{id}'].get.parameters.push({ $ref: './does-not-exist.yaml#/extra' });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./foto/{fotoId}.get', 'Operation must define parameter "{fotoId}" as expected by path "/foto/{fotoId}".'],
  ]);
});

test('spectral\'s other path-params findings stand beside an unread $ref', async () => {
  const doc = withPathParameter({ ...idParameter, required: false });
  doc.paths['/monumenten/{id}'].get.parameters.push({ $ref: './does-not-exist.yaml#/extra' });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten/{id}.get.parameters.0', 'Path parameter "id" must have "required" property that is set to "true".'],
  ]);
});

test('a path parameter defined in place passes', async () => {
  expect(await findingsOf(CODE, withPathParameter(idParameter))).toEqual([]);
});
