import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/core/transport/no-sensitive-uris';

test.each([
  ['bsn', 'query', 'bsn'],
  ['burgerservicenummer', 'query', 'burgerservicenummer'],
  ['client_secret', 'query', 'clientsecret'],
  ['persoonBsn', 'query', 'bsn'],
  ['access-token', 'query', 'accesstoken'],
  ['apiKey', 'query', 'apikey'],
  ['wachtwoord', 'query', 'wachtwoord'],
])('%s in the %s is a warning', async (name, location, word) => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.parameters.push({ name, in: location, schema: { type: 'string' } });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'paths./monumenten.get.parameters.1.name', `${location === 'query' ? 'Query' : 'Path'} parameter carries sensitive information in the URI (${word}): ${name}. Send it in a header or the request body, or use a pseudonym.`],
  ]);
});

test('a path parameter shared through components and used at path level is reported once, at the component', async () => {
  const doc = conformantDocument();
  doc.components.parameters = { Bsn: { name: 'bsn', in: 'path', required: true, schema: { type: 'string' } } };
  const response = doc.paths['/monumenten'].get.responses;
  doc.paths['/personen/{bsn}'] = { parameters: [{ $ref: '#/components/parameters/Bsn' }], get: { operationId: 'getPersoon', responses: response } };
  doc.paths['/personen/{bsn}/adressen'] = { parameters: [{ $ref: '#/components/parameters/Bsn' }], get: { operationId: 'getAdressen', responses: response } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.parameters.Bsn.name', 'Path parameter carries sensitive information in the URI (bsn): bsn. Send it in a header or the request body, or use a pseudonym.'],
  ]);
});

test('headers, and names that only resemble a secret, pass', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.parameters.push(
    { name: 'X-Bsn', in: 'header', schema: { type: 'string' } },
    { name: 'secretariaat', in: 'query', schema: { type: 'string' } },
    { name: 'pageToken', in: 'query', schema: { type: 'string' } },
    { name: 'bearerType', in: 'query', schema: { type: 'string' } },
    { name: 'jwtIssuer', in: 'query', schema: { type: 'string' } },
  );
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test.each([
  ['bsnnr', 'bsnnr'], ['citizenServiceNumber', 'citizenservicenumber'], ['token', 'token'], ['Authorization', 'authorization'], ['sessionId', 'sessionid'],
  ['apiToken', 'apitoken'], ['api_token', 'apitoken'], ['sessionToken', 'sessiontoken'], ['jwt', 'jwt'], ['jwtToken', 'jwttoken'], ['signedJwt', 'jwt'], ['id_jwt', 'jwt'], ['jwt_assertion', 'jwtassertion'], ['bearer', 'bearer'], ['credentials', 'credentials'], ['csrf_token', 'csrftoken'],
])('%s is sensitive too', async (name, word) => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.parameters.push({ name, in: 'query', schema: { type: 'string' } });
  expect(summary(await findingsOf(CODE, doc)).map(([, , message]) => message)).toEqual([
    `Query parameter carries sensitive information in the URI (${word}): ${name}. Send it in a header or the request body, or use a pseudonym.`,
  ]);
});

test('a boolean flag named after a BSN or a secret passes: it cannot carry one', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.parameters.push(
    { name: 'bsnAanwezig', in: 'query', schema: { type: 'boolean' } },
    { name: 'wachtwoordVerlopen', in: 'query', schema: { type: ['boolean', 'null'] } },
    { name: 'pincodeIngesteld', in: 'query', schema: { allOf: [{ type: 'boolean' }] } },
    { name: 'wachtwoordOk', in: 'query', content: { 'application/json': { schema: { type: 'boolean' } } } },
  );
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('a BSN-named parameter of any other type is still reported', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.parameters.push({ name: 'bsnAanwezig', in: 'query', schema: { type: 'string', enum: ['ja', 'nee'] } });
  expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual(['paths./monumenten.get.parameters.1.name']);
});
