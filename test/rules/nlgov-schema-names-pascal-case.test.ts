import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = 'nlgov:schema-names-pascal-case';

test.each([
  ['monument', 'Monument'],
  ['Monument_Detail', 'MonumentDetail'],
  ['monument-detail', 'MonumentDetail'],
  ['MONUMENT-LIJST', 'MonumentLijst'],
])('%s is a warning at the schema key, with the PascalCase name', async (name, pascal) => {
  const doc = conformantDocument();
  doc.components.schemas[name] = { type: 'object' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', `components.schemas.${name}`, `Schema name is not PascalCase: ${name}. Rename the schema in PascalCase: ${pascal}.`],
  ]);
});

test.each(['Monument', 'MonumentDetail', 'Monument2024', 'BAGAdres'])('%s passes', async (name) => {
  const doc = conformantDocument();
  doc.components.schemas[name] = { type: 'object' };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});
