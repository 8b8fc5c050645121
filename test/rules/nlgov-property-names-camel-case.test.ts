import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = 'nlgov:property-names-camel-case';
const message = (name: string) => `Property name is not lowerCamelCase: ${name}. Rename it in lowerCamelCase.`;

test('properties are found through items, allOf, oneOf, additionalProperties and nested objects', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Monument.properties.bouw_jaar = { type: 'integer' };
  doc.components.schemas.Monument.properties.adres = { type: 'object', properties: { Straat: { type: 'string' } } };
  doc.components.schemas.Lijst = {
    allOf: [{ properties: { 'totaal-aantal': { type: 'integer' } } }],
    oneOf: [{ properties: { Eerste: { type: 'string' } } }],
    properties: { items: { type: 'array', items: { properties: { item_id: { type: 'string' } } } } },
    additionalProperties: { properties: { Extra: { type: 'string' } } },
  };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.Monument.properties.bouw_jaar', message('bouw_jaar')],
    ['warn', 'components.schemas.Monument.properties.adres.properties.Straat', message('Straat')],
    ['warn', 'components.schemas.Lijst.allOf.0.properties.totaal-aantal', message('totaal-aantal')],
    ['warn', 'components.schemas.Lijst.oneOf.0.properties.Eerste', message('Eerste')],
    ['warn', 'components.schemas.Lijst.properties.items.items.properties.item_id', message('item_id')],
    ['warn', 'components.schemas.Lijst.additionalProperties.properties.Extra', message('Extra')],
  ]);
});

test('an inline schema in a response is checked; a shared schema used twice is reported once at its definition', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Monument.properties.Naam = { type: 'string' };
  doc.paths['/monumenten'].get.responses['200'].content['application/json'].schema = {
    type: 'object',
    properties: { Resultaten: { type: 'array', items: { $ref: '#/components/schemas/Monument' } }, eerste: { $ref: '#/components/schemas/Monument' } },
  };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'paths./monumenten.get.responses.200.content.application/json.schema.properties.Resultaten', message('Resultaten')],
    ['warn', 'components.schemas.Monument.properties.Naam', message('Naam')],
  ]);
});

test('circular schemas terminate; names inside example values are data', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Monument.properties.onderdelen = { type: 'array', items: { $ref: '#/components/schemas/Monument' } };
  doc.components.schemas.Monument.example = { identificatie: 'M-1', Niet_Gecontroleerd: true };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('HAL _links and _embedded and lowerCamelCase names pass', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Monument.properties._links = { type: 'object', properties: { self: { type: 'object', properties: { href: { type: 'string' } } } } };
  doc.components.schemas.Monument.properties._embedded = { type: 'object' };
  doc.components.schemas.Monument.properties.bouwjaarVanaf = { type: 'integer' };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('callbacks, tuple items, patternProperties and multipart encoding headers are walked', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Reeks = { type: 'array', items: [{ properties: { Tuple_Prop: { type: 'string' } } }] };
  doc.components.schemas.Vrij = { patternProperties: { '^x': { properties: { Pattern_Prop: { type: 'string' } } } } };
  doc.paths['/monumenten'].get.callbacks = {
    wijziging: { '{$request.body#/url}': { post: { requestBody: { content: { 'application/json': { schema: { properties: { Callback_Prop: { type: 'string' } } } } } }, responses: { '204': { description: 'Ok' } } } } },
  };
  const names = summary(await findingsOf(CODE, doc)).map(([, , message]) => message.split(': ')[1]?.split('.')[0]);
  expect(names).toEqual(['Callback_Prop', 'Tuple_Prop', 'Pattern_Prop']);
});

test('a badly named property whose value is a $ref is reported at the properties map that names it', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Adres = { type: 'object', properties: { straat: { type: 'string' } } };
  doc.components.schemas.Monument.properties.Adres = { $ref: '#/components/schemas/Adres' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.Monument.properties', message('Adres')],
  ]);
});

test('inline payload schemas of webhooks written under x-webhooks (OpenAPI 3.0) are walked', async () => {
  const doc: Record<string, unknown> = conformantDocument();
  doc['x-webhooks'] = {
    monumentGewijzigd: {
      post: {
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { monument_id: { type: 'string' }, gewijzigdOp: { type: 'string' } } } } } },
        responses: { '204': { description: 'Ontvangen' } },
      },
    },
  };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'x-webhooks.monumentGewijzigd.post.requestBody.content.application/json.schema.properties.monument_id', message('monument_id')],
  ]);
});

test('a schema reached through an earlier schema\'s $ref is still reported at its own definition, at the property', async () => {
  const doc = conformantDocument();
  doc.components.schemas = {
    A: { type: 'object', properties: { c: { $ref: '#/components/schemas/C' } } },
    C: { type: 'object', properties: { Fout: { type: 'string' } } },
    ...doc.components.schemas,
  };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.C.properties.Fout', message('Fout')],
  ]);
});

test('in a schema in another file, a property written in place is reported at the property, in that file', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Persoon = { $ref: './external-property-names.yaml#/Persoon' };
  const findings = await findingsOf(CODE, doc);
  expect(findings.map((finding) => [finding.path, finding.source?.endsWith('external-property-names.yaml'), finding.message])).toEqual([
    ['Persoon.properties', true, message('Adres')],
    ['Persoon.properties.geboorte_datum', true, message('geboorte_datum')],
  ]);
});
