import { isIssuerOf, issuersOfMetadataUrl } from '../live/checks/oauth.js';
import { adrCheck, expectBounded, jsonReport } from './support/adr-check-process.js';
import { startHostile, type HostileServer } from './support/hostile-servers.js';
import { oauthApi, TOKEN } from './support/hostile-output.js';

/**
 * Issue 23, items 7 and 8: the authorization server's metadata read as RFC 8414 has a client read
 * it, on the description's discovery path (the lab, test/lab-oauth.test.ts, covers
 * --oauth-metadata against oauth2-mock-server).
 */
const servers: HostileServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

test.each<[string, string[]]>([
  // RFC 8414 section 3.1: the well-known segment goes between the host and the issuer's path, a terminating "/" removed first.
  ['https://as.example/.well-known/oauth-authorization-server', ['https://as.example', 'https://as.example/']],
  ['https://as.example/.well-known/oauth-authorization-server/tenant/1', ['https://as.example/tenant/1', 'https://as.example/tenant/1/']],
  // OpenID Connect Discovery 4: appended to the issuer, a terminating "/" of its path removed first.
  ['https://as.example/tenant/.well-known/openid-configuration', ['https://as.example/tenant', 'https://as.example/tenant/']],
  ['https://as.example/.well-known/openid-configuration', ['https://as.example', 'https://as.example/']],
  // RFC 8414 section 5: openid-configuration inserted the RFC 8414 way.
  ['https://as.example/.well-known/openid-configuration/tenant', ['https://as.example/tenant', 'https://as.example/tenant/']],
  ['https://as.example/metadata.json', []],
  ['https://as.example/.well-known/openid-configuration?tenant=1', []],
  ['https://as.example/tenant/.well-known/openid-configuration/more', []],
])('the metadata at %s is the metadata of %j', (url, issuers) => {
  expect(issuersOfMetadataUrl(new URL(url))).toEqual(issuers);
});

test.each<[string, string, boolean]>([
  ['https://as.example/.well-known/openid-configuration', 'https://as.example', true],
  // The same server spelled otherwise: the host's case and a default port are not part of its identity.
  ['https://as.example/.well-known/openid-configuration', 'https://AS.example:443', true],
  ['https://as.example/.well-known/oauth-authorization-server/t', 'https://As.Example/t', true],
  ['https://as.example/.well-known/oauth-authorization-server/t', 'https://as.example/T', false],
  ['https://as.example/.well-known/oauth-authorization-server/t', 'https://as.example:8443/t', false],
  ['https://as.example/.well-known/oauth-authorization-server/t', 'https://as.example/t?x', false],
  ['https://as.example/.well-known/openid-configuration', 'https://evil.example', false],
])('metadata at %s naming issuer %s: used %s', (url, issuer, used) => {
  expect(isIssuerOf(issuer, issuersOfMetadataUrl(new URL(url)))).toBe(used);
});

const PROFILE = { response_types_supported: ['code'], grant_types_supported: ['authorization_code'], code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['private_key_jwt'] };

/** An API whose description names an openIdConnectUrl on its own origin, serving `metadata(origin)` there. */
async function apiServing(metadata: (origin: string) => Record<string, unknown>): Promise<HostileServer> {
  const server = await startHostile(oauthApi({
    schemes: { oidc: { type: 'openIdConnect', openIdConnectUrl: '/.well-known/openid-configuration' } },
    answers: { '/.well-known/openid-configuration': (_request, response, self) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(metadata(self.origin))) },
  }));
  servers.push(server);
  return server;
}

async function flowsOf(server: HostileServer) {
  const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--header', `Authorization: Bearer ${TOKEN}`]);
  expectBounded(outcome);
  return jsonReport(outcome).results.find((result) => result.code === 'nlgov:oauth-flows');
}

test('item 7: metadata at the openIdConnectUrl that names another issuer is not used (RFC 8414 section 3.3), and its plain HTTP is named', async () => {
  const issuer = 'https://login.example.nl';
  const server = await apiServing(() => ({ issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks`, ...PROFILE }));
  expect(await flowsOf(server)).toEqual(expect.objectContaining({
    verdict: 'fail',
    summary: 'the authorization server metadata is not usable',
    details: [
      `GET ${server.origin}/.well-known/openid-configuration names issuer "${issuer}", expected ${server.origin}: RFC 8414 section 3.3 forbids using metadata whose issuer is not the one its well-known URL was made from. Serve it at its own issuer's well-known URL, or name that issuer`,
      `GET ${server.origin}/.well-known/openid-configuration came over plain HTTP, expected https: the metadata tells clients where to send credentials and is exchanged over TLS like all information`,
    ],
  }));
}, 60000);

test('item 8: members left out are read with RFC 8414 section 2\'s defaults: implicit allowed, client_secret_basic', async () => {
  const server = await apiServing((origin) => ({ issuer: origin, response_types_supported: ['code'], code_challenge_methods_supported: ['S256'] }));
  const flows = await flowsOf(server);
  expect(flows?.verdict).toBe('fail');
  expect(flows?.details).toEqual([
    `GET ${server.origin}/.well-known/openid-configuration came over plain HTTP, expected https: the metadata tells clients where to send credentials and is exchanged over TLS like all information`,
    'lacks grant_types_supported, so RFC 8414 section 2\'s default ["authorization_code","implicit"] holds: the implicit grant, which the profile forbids. List the grants, without implicit',
    'lacks token_endpoint_auth_methods_supported, so RFC 8414 section 2\'s default ["client_secret_basic"] holds, expected private_key_jwt among them',
    `has issuer ${server.origin}, expected an https URL`,
  ]);
}, 60000);
