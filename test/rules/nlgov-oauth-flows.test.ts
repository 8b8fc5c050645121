import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = 'nlgov:oauth-flows';

function withFlows(flows: object) {
  const doc = conformantDocument();
  doc.components.securitySchemes = { oauth: { type: 'oauth2', flows } };
  return doc;
}

test('implicit and password flows are errors at each flow', async () => {
  const doc = withFlows({
    implicit: { authorizationUrl: 'https://auth.example.nl/authorize', scopes: { lezen: 'Lezen' } },
    password: { tokenUrl: 'https://auth.example.nl/token', scopes: { lezen: 'Lezen' } },
  });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'components.securitySchemes.oauth.flows.implicit', 'OAuth flow is not allowed by the NL GOV OAuth profile: implicit. Use the authorization code flow (with PKCE for public clients).'],
    ['error', 'components.securitySchemes.oauth.flows.password', 'OAuth flow is not allowed by the NL GOV OAuth profile: password. Use the authorization code flow (with PKCE for public clients).'],
  ]);
});

test('the authorization code flow passes', async () => {
  const doc = withFlows({ authorizationCode: { authorizationUrl: 'https://auth.example.nl/authorize', tokenUrl: 'https://auth.example.nl/token', scopes: { lezen: 'Lezen' } } });
  expect(await findingsOf(CODE, doc)).toEqual([]);
});
