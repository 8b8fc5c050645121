import { join } from 'node:path';
import { conformantDocument } from '../fixtures/conformant.js';
import { FIXTURES, findingsOf, summary } from '../harness.js';

const CODE = 'nlgov:schema-names-pascal-case';
const FALLBACK = 'Rename the schema in PascalCase, with only the letters A-Z and a-z and digits.';

test.each([
  ['monument', 'Monument'],
  ['Monument_Detail', 'MonumentDetail'],
  ['monument-detail', 'MonumentDetail'],
  ['Monument.Detail', 'MonumentDetail'],
  ['MONUMENT-LIJST', 'MonumentLijst'],
  // The rewrite keeps every letter, and capital runs the rule allows.
  ['monumentDTO', 'MonumentDTO'],
  ['BAG_adres', 'BAGAdres'],
  ['Café', 'Cafe'],
  ['Straße', 'Strasse'],
  ['_Intern', 'Intern'],
  ['2Monument', 'Schema2Monument'],
  // components.schemas holds no extensions in OpenAPI 3.0: an x- key is a schema name.
  ['x-intern', 'XIntern'],
])('%s is a warning at the schema key, with the PascalCase name', async (name, pascal) => {
  const doc = conformantDocument();
  doc.components.schemas[name] = { type: 'object' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', `components.schemas.${name}`, `Schema name is not PascalCase: ${name}. Rename the schema in PascalCase: ${pascal}.`],
  ]);
});

test('a name with a letter that has no ASCII form gets advice without a rewrite', async () => {
  const doc = conformantDocument();
  doc.components.schemas['Здание'] = { type: 'object' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.Здание', `Schema name is not PascalCase: Здание. ${FALLBACK}`],
  ]);
});

test.each(['Monument', 'MonumentDetail', 'Monument2024', 'BAGAdres', 'MonumentDTO', 'X'])('%s passes', async (name) => {
  const doc = conformantDocument();
  doc.components.schemas[name] = { type: 'object' };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test.each([
  ['in the same file', '#/components/schemas/Monument', 'monument_alias', 'MonumentAlias'],
  ['in another file', './naming-external-schemas.yaml#/Persoon', 'persoon_twee', 'PersoonTwee'],
])('an alias to a schema %s is reported at its own key in the linted file, not where its $ref leads', async (_where, target, alias, pascal) => {
  const doc = conformantDocument();
  // A correctly named alias to the same target, and the target itself when it is in this file.
  doc.components.schemas.Monument = target.startsWith('#') ? { type: 'object', properties: { naam: { type: 'string' } } } : { $ref: target };
  doc.components.schemas[alias] = { $ref: target };
  const findings = await findingsOf(CODE, doc);
  expect(summary(findings)).toEqual([
    ['warn', `components.schemas.${alias}`, `Schema name is not PascalCase: ${alias}. Rename the schema in PascalCase: ${pascal}.`],
  ]);
  expect(findings.map((finding) => finding.source)).toEqual([join(FIXTURES, 'inline.json')]);
});

test('a components.schemas that is itself a $ref is judged; its names are reported at that $ref, naming the file', async () => {
  const doc = conformantDocument();
  (doc.components as Record<string, unknown>).schemas = { $ref: './naming-external-schema-map.yaml' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.$ref', 'Schema name is not PascalCase: persoon_detail (in ./naming-external-schema-map.yaml). Rename the schema in PascalCase: PersoonDetail.'],
  ]);
});

test('a components that is itself a $ref is judged too', async () => {
  const doc = { openapi: '3.0.3', info: { title: 'Adressen', version: '1.0.0' }, paths: {}, components: { $ref: './naming-external-components.yaml' } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.$ref', 'Schema name is not PascalCase: adres_regel (in ./naming-external-components.yaml). Rename the schema in PascalCase: AdresRegel.'],
  ]);
});
