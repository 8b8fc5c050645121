import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = 'nlgov:global-search';
const ADVICE = 'Return currentPage, nextPage, pageSize and _embedded.items[] with type and _links.self.href.';

function withSearchResult(schema: object) {
  const doc = conformantDocument();
  doc.components.schemas.Zoekresultaat = schema;
  doc.paths['/_search'] = {
    post: {
      operationId: 'zoek',
      responses: {
        '200': { description: 'Ok', headers: { 'API-Version': { $ref: '#/components/headers/ApiVersion' } }, content: { 'application/hal+json': { schema: { $ref: '#/components/schemas/Zoekresultaat' } } } },
        '400': { $ref: '#/components/responses/Probleem' },
      },
    },
  };
  return doc;
}

const item = { type: 'object', properties: { type: { type: 'string' }, _links: { type: 'object', properties: { self: { type: 'object', properties: { href: { type: 'string' } } } } } } };

test('missing paging fields and an items member without type are warnings at the schema that lacks them', async () => {
  const doc = withSearchResult({
    type: 'object',
    properties: {
      currentPage: { type: 'integer' },
      _embedded: { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { _links: item.properties._links } } } } },
    },
  });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.Zoekresultaat', `Global search result lacks a required field: nextPage. ${ADVICE}`],
    ['warn', 'components.schemas.Zoekresultaat', `Global search result lacks a required field: pageSize. ${ADVICE}`],
    ['warn', 'components.schemas.Zoekresultaat.properties._embedded.properties.items.items', `Global search result lacks a required field: _embedded.items[].type. ${ADVICE}`],
  ]);
});

test('a result without _embedded is reported once for it', async () => {
  const doc = withSearchResult({ type: 'object', properties: { currentPage: { type: 'integer' }, nextPage: { type: 'integer' }, pageSize: { type: 'integer' } } });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.Zoekresultaat', `Global search result lacks a required field: _embedded. ${ADVICE}`],
  ]);
});

test('the full shape passes, also when composed with allOf', async () => {
  const doc = withSearchResult({
    allOf: [
      { type: 'object', properties: { currentPage: { type: 'integer' }, nextPage: { type: 'integer' }, pageSize: { type: 'integer' } } },
      { type: 'object', properties: { _embedded: { type: 'object', properties: { items: { type: 'array', items: item } } } } },
    ],
  });
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('items that are a oneOf of member schemas pass when every branch has type and _links.self.href', async () => {
  const monument = { ...item, properties: { ...item.properties, naam: { type: 'string' } } };
  const doc = withSearchResult({
    type: 'object',
    properties: {
      currentPage: { type: 'integer' }, nextPage: { type: 'integer' }, pageSize: { type: 'integer' },
      _embedded: { type: 'object', properties: { items: { type: 'array', items: { oneOf: [item, monument] } } } },
    },
  });
  expect(await findingsOf(CODE, doc)).toEqual([]);
  doc.components.schemas.Zoekresultaat.properties._embedded.properties.items.items.oneOf.push({ type: 'object', properties: { naam: { type: 'string' } } });
  expect(summary(await findingsOf(CODE, doc)).map(([, , message]) => message)).toEqual([
    `Global search result lacks a required field: _embedded.items[].type. ${ADVICE}`,
    `Global search result lacks a required field: _embedded.items[]._links. ${ADVICE}`,
  ]);
});

test('a document whose paths is an array does not stop the run (it crashed a JSONPath filter)', async () => {
  const doc = conformantDocument();
  doc.paths = [{}, { '/_search': {} }];
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

const paging = { type: 'object', properties: { currentPage: { type: 'integer' }, nextPage: { type: 'integer' }, pageSize: { type: 'integer' } } };
const embedded = (items: object) => ({ type: 'object', properties: { _embedded: { type: 'object', properties: { items } } } });

test('oneOf or anyOf branches that share a $ref schema each count it (it was seen as empty in the second branch)', async () => {
  const doc = withSearchResult({
    oneOf: [
      { allOf: [{ $ref: '#/components/schemas/Paginering' }, { $ref: '#/components/schemas/Resultaten' }] },
      { allOf: [{ $ref: '#/components/schemas/Paginering' }, { $ref: '#/components/schemas/Resultaten' }, { type: 'object', properties: { totaal: { type: 'integer' } } }] },
    ],
  });
  Object.assign(doc.components.schemas, {
    Paginering: paging,
    Resultaten: embedded({ type: 'array', items: item }),
    Compleet: { allOf: [{ $ref: '#/components/schemas/Paginering' }, { $ref: '#/components/schemas/Resultaten' }] },
  });
  expect(await findingsOf(CODE, doc)).toEqual([]);
  doc.components.schemas.Zoekresultaat = { anyOf: [{ $ref: '#/components/schemas/Compleet' }, { $ref: '#/components/schemas/Compleet' }] };
  expect(await findingsOf(CODE, doc)).toEqual([]);
  // What a branch really lacks is still reported.
  doc.components.schemas.Zoekresultaat = { oneOf: [{ $ref: '#/components/schemas/Compleet' }, { allOf: [{ $ref: '#/components/schemas/Paginering' }] }] };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.Zoekresultaat.oneOf.1', `Global search result lacks a required field: _embedded. ${ADVICE}`],
  ]);
});

test('items that are an array schema wrapped in allOf are followed into its items', async () => {
  const doc = withSearchResult({ allOf: [paging, embedded({ description: 'De resultaten', allOf: [{ $ref: '#/components/schemas/Lijst' }] })] });
  doc.components.schemas.Lijst = { type: 'array', items: item };
  expect(await findingsOf(CODE, doc)).toEqual([]);
  doc.components.schemas.Lijst = { type: 'array', items: { type: 'object', properties: { type: { type: 'string' } } } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.Lijst.items', `Global search result lacks a required field: _embedded.items[]._links. ${ADVICE}`],
  ]);
});

test('items that are a oneOf of array schemas need type and _links.self.href in every one', async () => {
  const doc = withSearchResult({ allOf: [paging, embedded({ oneOf: [{ type: 'array', items: item }, { $ref: '#/components/schemas/Lijst' }] })] });
  doc.components.schemas.Lijst = { type: 'array', items: item };
  expect(await findingsOf(CODE, doc)).toEqual([]);
  doc.components.schemas.Lijst = { type: 'array', items: { type: 'object', properties: { _links: item.properties._links } } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.Lijst.items', `Global search result lacks a required field: _embedded.items[].type. ${ADVICE}`],
  ]);
  doc.components.schemas.Lijst = { type: 'object' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.Zoekresultaat.allOf.1.properties._embedded.properties.items', `Global search result lacks a required field: _embedded.items[] (array items). ${ADVICE}`],
  ]);
});

test('a result schema that includes itself through allOf is still judged', async () => {
  const doc = withSearchResult({ allOf: [paging, { $ref: '#/components/schemas/Zoekresultaat' }] });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.Zoekresultaat', `Global search result lacks a required field: _embedded. ${ADVICE}`],
  ]);
});

test('items, or a property, given by more than one allOf part is all of them at once', async () => {
  // One part makes the member an array, another gives its items.
  const doc = withSearchResult({ allOf: [paging, embedded({ allOf: [{ $ref: '#/components/schemas/Lijst' }, { items: { $ref: '#/components/schemas/Lid' } }] })] });
  doc.components.schemas.Lijst = { type: 'array', items: { type: 'object' } };
  doc.components.schemas.Lid = item;
  expect(await findingsOf(CODE, doc)).toEqual([]);
  // _links in one part, its self.href in another.
  doc.components.schemas.Lid = { allOf: [{ type: 'object', properties: { type: { type: 'string' }, _links: { type: 'object' } } }, { properties: { _links: item.properties._links } }] };
  expect(await findingsOf(CODE, doc)).toEqual([]);
  doc.components.schemas.Lid = { allOf: [{ type: 'object', properties: { type: { type: 'string' }, _links: { type: 'object' } } }, { properties: { _links: { properties: { self: { type: 'object' } } } } }] };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.Lid.allOf.1.properties._links.properties.self', `Global search result lacks a required field: _embedded.items[]._links.self.href. ${ADVICE}`],
  ]);
});

test('a oneOf is followed branch by branch: a branch that lacks a field is reported at that branch', async () => {
  const doc = withSearchResult({ allOf: [paging, embedded({ type: 'array', items: { oneOf: [{ $ref: '#/components/schemas/Lid' }, { $ref: '#/components/schemas/AnderLid' }] } })] });
  doc.components.schemas.Lid = item;
  doc.components.schemas.AnderLid = { type: 'object', properties: { type: { type: 'string' }, _links: { type: 'object', properties: { self: { type: 'object' } } } } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.AnderLid.properties._links.properties.self', `Global search result lacks a required field: _embedded.items[]._links.self.href. ${ADVICE}`],
  ]);
  doc.components.schemas.AnderLid = { type: 'object', properties: { _links: item.properties._links } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.AnderLid', `Global search result lacks a required field: _embedded.items[].type. ${ADVICE}`],
  ]);
});

test('a gap in one oneOf branch does not hide another branch\'s gap further down', async () => {
  const doc = withSearchResult({ oneOf: [{ $ref: '#/components/schemas/ZonderEmbedded' }, { $ref: '#/components/schemas/ZonderLinks' }] });
  doc.components.schemas.ZonderEmbedded = paging;
  doc.components.schemas.ZonderLinks = { allOf: [paging, embedded({ type: 'array', items: { type: 'object', properties: { type: { type: 'string' } } } })] };
  const expected = [
    ['warn', 'components.schemas.ZonderEmbedded', `Global search result lacks a required field: _embedded. ${ADVICE}`],
    ['warn', 'components.schemas.ZonderLinks.allOf.1.properties._embedded.properties.items.items', `Global search result lacks a required field: _embedded.items[]._links. ${ADVICE}`],
  ];
  expect(summary(await findingsOf(CODE, doc))).toEqual(expected);
  doc.components.schemas.Zoekresultaat.oneOf.reverse();
  expect(summary(await findingsOf(CODE, doc))).toEqual(expected);
});

test('with two oneOfs side by side, a gap is reported at the branch that lacks the field, not at a complete one of the other oneOf', async () => {
  const results = embedded({ type: 'array', items: item });
  const doc = withSearchResult({
    allOf: [
      { oneOf: [{ $ref: '#/components/schemas/Paginering' }, { $ref: '#/components/schemas/PagineringZonderCurrent' }] },
      { oneOf: [{ $ref: '#/components/schemas/Resultaten' }, { $ref: '#/components/schemas/Resultaten2' }] },
    ],
  });
  Object.assign(doc.components.schemas, {
    Paginering: paging,
    PagineringZonderCurrent: { type: 'object', properties: { nextPage: { type: 'integer' }, pageSize: { type: 'integer' } } },
    Resultaten: results,
    Resultaten2: structuredClone(results),
  });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.PagineringZonderCurrent', `Global search result lacks a required field: currentPage. ${ADVICE}`],
  ]);
});

test('a schema that names a shared schema twice, at every level of 40, is judged in linear time (it doubled per level)', async () => {
  const doc = withSearchResult({ $ref: '#/components/schemas/Niveau40' });
  doc.components.schemas.Niveau0 = paging;
  for (let level = 1; level <= 40; level += 1) {
    const below = { $ref: `#/components/schemas/Niveau${level - 1}` };
    doc.components.schemas[`Niveau${level}`] = level % 2 === 0 ? { allOf: [below, below] } : { oneOf: [below, below] };
  }
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.Niveau40', `Global search result lacks a required field: _embedded. ${ADVICE}`],
  ]);
});

test('the branch that lacks a field is found however shallow its path is beside the first declaration (nested allOf)', async () => {
  const doc = withSearchResult({
    allOf: [
      { allOf: [{ allOf: [{ type: 'object', properties: { ...paging.properties, _embedded: { type: 'object' } } }] }] },
      { properties: { _embedded: { oneOf: [{ properties: { items: { type: 'array', items: item } } }, { properties: { treffers: { type: 'array' } } }] } } },
    ],
  });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.Zoekresultaat.allOf.1.properties._embedded.oneOf.1', `Global search result lacks a required field: _embedded.items[]. ${ADVICE}`],
  ]);
});
