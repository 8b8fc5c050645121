import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = 'nlgov:oauth-scopes';

function protectedDocument() {
  const doc = conformantDocument();
  doc.components.securitySchemes = {
    oauth: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'https://auth.example.nl/authorize', tokenUrl: 'https://auth.example.nl/token', scopes: { 'monumenten:lezen': 'Monumenten lezen' } } } },
  };
  doc.security = [{ oauth: ['monumenten:lezen'] }];
  return doc;
}

test('an undescribed scope, a requirement without scopes and an undefined scope are errors', async () => {
  const doc = protectedDocument();
  doc.components.securitySchemes.oauth.flows.authorizationCode.scopes['monumenten:schrijven'] = '';
  doc.security = [{ oauth: [] }];
  doc.paths['/monumenten'].get.security = [{ oauth: ['monumenten:beheren'] }];
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.security.0.oauth.0', 'OAuth requirement names a scope that oauth does not define: monumenten:beheren. Define it in the flows of oauth, or use one of monumenten:lezen, monumenten:schrijven.'],
    ['error', 'components.securitySchemes.oauth.flows.authorizationCode.scopes.monumenten:schrijven', 'OAuth scope has no description: monumenten:schrijven. Document what the scope grants.'],
    ['error', 'security.0.oauth', 'OAuth requirement for oauth names no scope: []. Name the scopes the resource needs, from monumenten:lezen, monumenten:schrijven.'],
  ]);
});

test('described scopes required by name pass; other schemes need no scopes', async () => {
  const doc = protectedDocument();
  doc.components.securitySchemes.sleutel = { type: 'http', scheme: 'bearer' };
  doc.paths['/monumenten'].get.security = [{ sleutel: [] }];
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('the security of a HEAD, OPTIONS or TRACE operation is judged too (/core/http-methods reports the method)', async () => {
  const doc = protectedDocument();
  const { responses } = doc.paths['/monumenten'].get;
  doc.paths['/monumenten'].head = { operationId: 'headMonumenten', security: [{ oauth: ['onbekend'] }], responses };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.head.security.0.oauth.0', 'OAuth requirement names a scope that oauth does not define: onbekend. Define it in the flows of oauth, or use one of monumenten:lezen.'],
  ]);
});
