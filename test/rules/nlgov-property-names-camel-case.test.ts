import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = 'nlgov:property-names-camel-case';
/** The message names the name in lowerCamelCase as the fix (`bouw_jaar` -> `bouwJaar`). */
const message = (name: string, fix = name.charAt(0).toLowerCase() + name.slice(1).replace(/[_-]([a-z])/g, (_all, letter: string) => letter.toUpperCase())) =>
  `Property name is not lowerCamelCase: ${name}. Rename it in lowerCamelCase, for example ${fix}.`;

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

test('the fix keeps one leading underscore and every letter; a name without a lowerCamelCase form gets the general advice', async () => {
  const doc = conformantDocument();
  Object.assign(doc.components.schemas.Monument.properties, { __links: {}, BSN: {}, 'Straße': {}, monumentDTO_lijst: {}, '2fa': {}, '@type': {} });
  expect(summary(await findingsOf(CODE, doc)).map(([, , text]) => text)).toEqual([
    message('__links', '_links'),
    message('BSN', 'bsn'),
    message('Straße', 'strasse'),
    message('monumentDTO_lijst', 'monumentDTOLijst'),
    'Property name is not lowerCamelCase: 2fa. Rename it in lowerCamelCase.',
    'Property name is not lowerCamelCase: @type. Rename it in lowerCamelCase.',
  ]);
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

test('a badly named property whose value is a $ref is reported at its own key (issue 22 item 14)', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Adres = { type: 'object', properties: { straat: { type: 'string' } } };
  doc.components.schemas.Monument.properties.Adres = { $ref: '#/components/schemas/Adres' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.schemas.Monument.properties.Adres', message('Adres')],
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

describe('names fixed by the OAuth RFCs at the token endpoint, and by RFC 7517/7518 in a JWK, are not reported', () => {
  const form = (properties: Record<string, unknown>) => ({ content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties } } } });
  const json = (schema: unknown) => ({ 'application/json': { schema } });
  const string = { type: 'string' };

  /** A token endpoint at `path`, its token response shared through components, with one name no RFC fixes. */
  function withTokenEndpoint(path: string, tokenUrl: string, extra: Record<string, unknown> = {}): Record<string, any> {
    const doc = conformantDocument();
    doc.components.securitySchemes = {
      oauth: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'https://login.example.nl/authorize', tokenUrl, scopes: { lezen: 'Monumenten lezen.' } } } },
    };
    doc.components.schemas.TokenAntwoord = {
      type: 'object',
      properties: { access_token: string, token_type: string, expires_in: { type: 'integer' }, refresh_token: string, scope: string, issued_token_type: string, eigen_veld: string },
    };
    doc.paths[path] = {
      ...extra,
      post: {
        operationId: 'token',
        requestBody: form({
          grant_type: string, code: string, redirect_uri: string, client_id: string, client_secret: string, code_verifier: string,
          client_assertion: string, client_assertion_type: string, refresh_token: string, subject_token: string, subject_token_type: string,
          actor_token: string, actor_token_type: string, requested_token_type: string, audience: string, resource: string,
        }),
        responses: {
          '200': { description: 'Een token.', content: json({ $ref: '#/components/schemas/TokenAntwoord' }) },
          '400': { description: 'Fout.', content: json({ type: 'object', properties: { error: string, error_description: string, error_uri: string } }) },
        },
      },
    };
    return doc;
  }

  test.each([
    ['absolute, below the server\'s base path', 'https://api.example.nl/monumenten/v1/oauth/token'],
    ['relative to the server, starting with /', '/oauth/token'],
    ['relative to the server, without /', 'oauth/token'],
    ['relative to the host, with the server\'s base path', '/monumenten/v1/oauth/token'],
  ])('the path a tokenUrl names (%s) is the token endpoint: only the name no RFC fixes is reported', async (_how, tokenUrl) => {
    const findings = await findingsOf(CODE, withTokenEndpoint('/oauth/token', tokenUrl));
    expect(findings.map(({ path }) => path)).toEqual(['components.schemas.TokenAntwoord.properties.eigen_veld']);
  });

  test('a tokenUrl on another host names no path of this API: its names are judged as anywhere else', async () => {
    const findings = await findingsOf(CODE, withTokenEndpoint('/oauth/token', 'https://login.example.nl/oauth/token'));
    expect(findings.map(({ path }) => path)).toContain('components.schemas.TokenAntwoord.properties.access_token');
  });

  test('a path marked x-oauth-endpoint (token, revocation, introspection) is such an endpoint without a tokenUrl', async () => {
    const doc = withTokenEndpoint('/token', 'https://login.example.nl/oauth/token', { 'x-oauth-endpoint': 'token' });
    doc.paths['/introspectie'] = {
      post: {
        'x-oauth-endpoint': 'introspection',
        operationId: 'introspectie',
        requestBody: form({ token: string, token_type_hint: string }),
        responses: { '200': { description: 'Ok.', content: json({ type: 'object', properties: { active: { type: 'boolean' }, client_id: string, token_type: string, username: string, exp: { type: 'integer' } } }) } },
      },
    };
    const findings = await findingsOf(CODE, doc);
    expect(findings.map(({ path }) => path)).toEqual(['components.schemas.TokenAntwoord.properties.eigen_veld']);
  });

  test('the same names elsewhere in the API are reported', async () => {
    const doc = withTokenEndpoint('/oauth/token', '/oauth/token');
    doc.components.schemas.Monument.properties.client_id = string;
    const findings = await findingsOf(CODE, doc);
    expect(findings.map(({ path }) => path)).toContain('components.schemas.Monument.properties.client_id');
  });

  test('a JWK (a schema with kty among its properties) and a JWK Set keep the member names of RFC 7517/7518', async () => {
    const doc = conformantDocument();
    doc.components.schemas.Jwks = { type: 'object', properties: { keys: { type: 'array', items: { $ref: '#/components/schemas/Jwk' } } } };
    doc.components.schemas.Jwk = {
      type: 'object',
      required: ['kty'],
      properties: Object.fromEntries(['kty', 'use', 'key_ops', 'alg', 'kid', 'x5u', 'x5c', 'x5t', 'x5t#S256', 'crv', 'x', 'y', 'd', 'n', 'e', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'].map((name) => [name, string])),
    };
    doc.components.schemas.Sleutelring = { type: 'object', properties: { key_ops: string } };
    const findings = await findingsOf(CODE, doc);
    expect(findings.map(({ path }) => path)).toEqual(['components.schemas.Sleutelring.properties.key_ops']);
  });
});
