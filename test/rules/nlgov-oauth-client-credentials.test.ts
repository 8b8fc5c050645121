import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = 'nlgov:oauth-client-credentials';

test('the client credentials flow is an info', async () => {
  const doc = conformantDocument();
  doc.components.securitySchemes = { machine: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://auth.example.nl/token', scopes: { lezen: 'Lezen' } } } } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['info', 'components.securitySchemes.machine.flows.clientCredentials', 'OAuth flow is out of scope of the NL GOV OAuth profile: clientCredentials. Such clients must not request or be issued refresh tokens; document how they are registered.'],
  ]);
});

test('other schemes and flows pass', async () => {
  const doc = conformantDocument();
  doc.components.securitySchemes = { sleutel: { type: 'http', scheme: 'bearer' } };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});
