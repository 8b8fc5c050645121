import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/core/transport/no-sensitive-uris';
const CITIZEN_NUMBER_ADVICE = 'Send it in the request body (for example of a POST on a search resource such as .../_zoek) or a header, or use a pseudonym.';
const SECRET_ADVICE = 'Send it in a header (credentials in Authorization) or the request body.';
const CITIZEN_NUMBER_WORDS = new Set(['bsn', 'bsnnr', 'burgerservicenummer', 'citizenservicenumber', 'anummer', 'administratienummer']);

/** The message for a parameter `name` in `location`; the matched word is shown only where the name holds more. */
function message(location: string, name: string, word: string): string {
  const citizen = CITIZEN_NUMBER_WORDS.has(word);
  const matched = name.toLowerCase().replace(/[^a-z0-9]/g, '') === word ? '' : ` (${word})`;
  return `${location === 'query' ? 'Query' : 'Path'} parameter puts ${citizen ? 'a citizen identification number' : 'a secret'} in the URI: ${name}${matched}. ${citizen ? CITIZEN_NUMBER_ADVICE : SECRET_ADVICE}`;
}

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
    ['warn', 'paths./monumenten.get.parameters.1.name', message(location, name, word)],
  ]);
});

test('a path parameter shared through components and used at path level is reported once, at the component', async () => {
  const doc = conformantDocument();
  doc.components.parameters = { Bsn: { name: 'bsn', in: 'path', required: true, schema: { type: 'string' } } };
  const response = doc.paths['/monumenten'].get.responses;
  doc.paths['/personen/{bsn}'] = { parameters: [{ $ref: '#/components/parameters/Bsn' }], get: { operationId: 'getPersoon', responses: response } };
  doc.paths['/personen/{bsn}/adressen'] = { parameters: [{ $ref: '#/components/parameters/Bsn' }], get: { operationId: 'getAdressen', responses: response } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.parameters.Bsn.name', `Path parameter puts a citizen identification number in the URI: bsn. ${CITIZEN_NUMBER_ADVICE}`],
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
    message('query', name, word),
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

describe('the A-nummer (administratienummer of the BRP) is a citizen identification number like the BSN', () => {
  test.each([
    ['aNummer', 'anummer'], ['anummer', 'anummer'], ['ANummer', 'anummer'], ['a_nummer', 'anummer'], ['a-nummer', 'anummer'],
    ['inpA_nummer', 'anummer'], ['persoonANummer', 'anummer'], ['administratienummer', 'administratienummer'],
  ])('%s in the query is reported as a citizen identification number', async (name, word) => {
    const doc = conformantDocument();
    doc.paths['/monumenten'].get.parameters.push({ name, in: 'query', schema: { type: 'string' } });
    expect(summary(await findingsOf(CODE, doc))).toEqual([['warn', 'paths./monumenten.get.parameters.1.name', message('query', name, word)]]);
  });

  test('near misses pass: aantal, naam, nummer, huisnummer, anumberOfThings and the English aNumber', async () => {
    const doc = conformantDocument();
    for (const name of ['aantal', 'naam', 'nummer', 'huisnummer', 'nummeraanduiding', 'anumberOfThings', 'aNumber', 'anr', 'aNummerAanwezig']) {
      doc.paths['/monumenten'].get.parameters.push({ name, in: 'query', schema: name === 'aNummerAanwezig' ? { type: 'boolean' } : { type: 'string' } });
    }
    expect(await findingsOf(CODE, doc)).toEqual([]);
  });
});
