import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/core/transport/tls';

test('plain http server URLs are errors at root, path and operation level', async () => {
  const doc = conformantDocument();
  doc.servers = [{ url: 'http://api.example.nl/v1' }];
  doc.paths['/monumenten'].get.servers = [{ url: '{scheme}://api.example.nl/v1', variables: { scheme: { default: 'http', enum: ['http', 'https'] } } }];
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'servers.0.url', 'URL does not use https: http://api.example.nl/v1. Serve the API and its OAuth endpoints over TLS only (https).'],
    ['error', 'paths./monumenten.get.servers.0.url', 'URL does not use https: http://api.example.nl/v1. Serve the API and its OAuth endpoints over TLS only (https).'],
  ]);
});

test('OAuth flow URLs and openIdConnectUrl must use https', async () => {
  const doc = conformantDocument();
  doc.components.securitySchemes = {
    oauth: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'http://auth.example.nl/authorize', tokenUrl: 'https://auth.example.nl/token', refreshUrl: 'http://auth.example.nl/refresh', scopes: {} } } },
    oidc: { type: 'openIdConnect', openIdConnectUrl: 'http://auth.example.nl/.well-known/openid-configuration' },
  };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'components.securitySchemes.oauth.flows.authorizationCode.authorizationUrl', 'URL does not use https: http://auth.example.nl/authorize. Serve the API and its OAuth endpoints over TLS only (https).'],
    ['error', 'components.securitySchemes.oauth.flows.authorizationCode.refreshUrl', 'URL does not use https: http://auth.example.nl/refresh. Serve the API and its OAuth endpoints over TLS only (https).'],
    ['error', 'components.securitySchemes.oidc.openIdConnectUrl', 'URL does not use https: http://auth.example.nl/.well-known/openid-configuration. Serve the API and its OAuth endpoints over TLS only (https).'],
  ]);
});

test.each(['https://api.example.nl/v1', '/v1', 'http://localhost:8080/v1', 'http://127.0.0.1/v1', 'http://[::1]:3000/v1'])('%s passes (relative and loopback exempt)', async (url) => {
  const doc = conformantDocument();
  doc.servers = [{ url }];
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('a leading space does not make an http URL relative; x- flows are extensions', async () => {
  const doc = conformantDocument();
  doc.servers = [{ url: ' http://api.example.nl/v1' }];
  doc.components.securitySchemes = { oauth: { type: 'oauth2', flows: { 'x-eigen': { tokenUrl: 'http://a.example.nl/token' } } } };
  expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual(['servers.0.url']);
});

test('an http URL that is no valid URL is still plainly http, read as written', async () => {
  const doc = conformantDocument();
  doc.servers = [{ url: 'http://api.example.nl:99999/v1' }, { url: 'HTTP://%zz.example.nl/v1' }, { url: 'http://user@localhost:99999/v1' }];
  doc.components.securitySchemes = { oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'http://login example.nl/token', scopes: {} } } } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'servers.0.url', 'URL does not use https: http://api.example.nl:99999/v1. Serve the API and its OAuth endpoints over TLS only (https).'],
    ['error', 'servers.1.url', 'URL does not use https: HTTP://%zz.example.nl/v1. Serve the API and its OAuth endpoints over TLS only (https).'],
    ['error', 'components.securitySchemes.oauth.flows.clientCredentials.tokenUrl', 'URL does not use https: http://login example.nl/token. Serve the API and its OAuth endpoints over TLS only (https).'],
  ]);
});

test('a loopback host written as a fully qualified name (localhost.) is loopback too', async () => {
  const doc = conformantDocument();
  doc.servers = [{ url: 'http://localhost.:8080/v1' }, { url: 'http://127.0.0.1./v1' }];
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('the server of a Link Object and the servers of callbacks are URLs too', async () => {
  const doc = conformantDocument();
  doc.components.links = { Monument: { operationId: 'getMonument', server: { url: 'http://links.example.nl/v1' } } };
  doc.paths['/monumenten'].get.callbacks = {
    gewijzigd: { '{$request.query.url}': { servers: [{ url: 'http://client.example.nl' }], post: { servers: [{ url: 'http://client2.example.nl' }], responses: { '204': { description: 'Ontvangen' } } } } },
  };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.callbacks.gewijzigd.{$request.query.url}.servers.0.url', 'URL does not use https: http://client.example.nl. Send callbacks over TLS only (https).'],
    ['error', 'paths./monumenten.get.callbacks.gewijzigd.{$request.query.url}.post.servers.0.url', 'URL does not use https: http://client2.example.nl. Send callbacks over TLS only (https).'],
    ['error', 'components.links.Monument.server.url', 'URL does not use https: http://links.example.nl/v1. Serve the API and its OAuth endpoints over TLS only (https).'],
  ]);
});

test('a security scheme, link or path named callbacks gets the advice for the API, not for callbacks', async () => {
  const doc = conformantDocument();
  doc.components.securitySchemes = { callbacks: { type: 'openIdConnect', openIdConnectUrl: 'http://auth.example.nl/.well-known/openid-configuration' } };
  doc.components.links = { callbacks: { operationId: 'getMonument', server: { url: 'http://links.example.nl/v1' } } };
  doc.paths['/callbacks'] = { servers: [{ url: 'http://api.example.nl/v1' }], get: doc.paths['/monumenten'].get };
  const advice = 'Serve the API and its OAuth endpoints over TLS only (https).';
  expect(summary(await findingsOf(CODE, doc)).map(([, path, message]) => [path, message.endsWith(advice)])).toEqual([
    ['paths./callbacks.servers.0.url', true],
    ['components.securitySchemes.callbacks.openIdConnectUrl', true],
    ['components.links.callbacks.server.url', true],
  ]);
});

test('the servers of webhooks (webhooks, x-webhooks) are URLs too, with the advice for webhooks', async () => {
  const doc = conformantDocument();
  doc['x-webhooks'] = { monumentGewijzigd: { servers: [{ url: 'http://client.example.nl' }], post: { servers: [{ url: 'http://client2.example.nl' }], responses: { '204': { description: 'Ontvangen' } } } } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'x-webhooks.monumentGewijzigd.servers.0.url', 'URL does not use https: http://client.example.nl. Send webhooks over TLS only (https).'],
    ['error', 'x-webhooks.monumentGewijzigd.post.servers.0.url', 'URL does not use https: http://client2.example.nl. Send webhooks over TLS only (https).'],
  ]);
});

test('the IPv4 loopback written as IPv6 (::ffff:127.0.0.1) is loopback', async () => {
  const doc = conformantDocument();
  doc.servers = [{ url: 'http://[::ffff:127.0.0.1]:8080/v1' }, { url: 'http://[::ffff:7f00:1]/v1' }, { url: 'http://[::ffff:10.0.0.1]/v1' }];
  expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual(['servers.2.url']);
});
