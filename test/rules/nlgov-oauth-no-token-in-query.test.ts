import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = 'nlgov:oauth-no-token-in-query';

test('an apiKey scheme in the query and an access_token query parameter are errors', async () => {
  const doc = conformantDocument();
  doc.components.securitySchemes = { sleutel: { type: 'apiKey', in: 'query', name: 'key' } };
  doc.paths['/monumenten'].get.parameters.push({ name: 'access_token', in: 'query', schema: { type: 'string' } });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.parameters.1.name', 'Access token is accepted in the query string: access_token. Accept the bearer token in the Authorization header only.'],
    ['error', 'components.securitySchemes.sleutel.in', 'API key is sent in the query string: key. Send credentials in the Authorization header.'],
  ]);
});

test('an apiKey in a header and access_token in the body pass', async () => {
  const doc = conformantDocument();
  doc.components.securitySchemes = { sleutel: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});
