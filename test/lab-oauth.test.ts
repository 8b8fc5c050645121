import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adrCheck, jsonReport, type JsonReport } from './support/adr-check-process.js';
import { issueLabPki, type LabPki } from './support/lab/tls.js';
import { expectVerdict, type Expectation } from './support/lab/verdicts.js';
import {
  issueToken, profileMetadata, REQUIRED_SCOPE, startAuthorizationServer, startResourceServer,
  type AuthorizationServer, type Closable, type MockSetup, type ResourceStyle,
} from './support/lab-oauth.js';

/**
 * The OAuth lab (issue 23): oauth2-mock-server from npm as the authorization server, as shipped
 * and behind a thin proxy that sets each case; a resource server written with Express 5 that
 * validates its tokens. Each case asserts the verdict the SPEC sentence or, where SPEC is silent,
 * the RFC 8414 or RFC 6750 sentence gives (docs/live/tested-implementations.md, "OAuth", has the same
 * table); where adr-check says otherwise the test prints what it said and why.
 */
const DEADLINE = 40;
const running: Closable[] = [];
let folder: string;
let pki: LabPki;

type TokenKind = 'valid' | 'without-scope' | 'expired';

interface LabCase {
  name: string;
  server: MockSetup;
  resource: ResourceStyle;
  token: TokenKind;
  expect: (server: AuthorizationServer) => Expectation[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const FLOWS = 'nlgov:oauth-flows';
const QUERY = 'nlgov:oauth-no-token-in-query';
const CONFORMANT_RESOURCE: ResourceStyle = { unauthorized: 'problem+json', queryToken: 'ignored' };
const PROFILE_BEHIND_PROXY: MockSetup = { proxy: 'https', issuerAt: 'proxy', rewrite: profileMetadata };

const SPEC_QUERY = '"A protected resource MUST NOT accept tokens in the query parameter."';
const SPEC_HEADER = '"A protected resource MUST accept it there [in the Authorization header]."';

/** The conformant resource server: no token 401 Bearer problem+json, the header token works, the query token is a request without a token. */
const resourcePasses: Expectation = {
  code: QUERY, verdict: 'pass', spec: SPEC_QUERY,
  details: [/^GET \/v1\/gebouwen: 401 Bearer problem\+json without a token; the token works in the Authorization header and is refused in the query string$/],
};

export const LAB_CASES: LabCase[] = [
  {
    name: 'the mock behind a proxy that makes its metadata the profile\'s; a conformant resource server',
    server: PROFILE_BEHIND_PROXY, resource: CONFORMANT_RESOURCE, token: 'valid',
    expect: (server) => [
      {
        code: FLOWS, verdict: 'pass', spec: 'SPEC OAuth 4: authorization code, private_key_jwt, PKCE S256; RFC 8414 3.3: the issuer is the one the well-known URL was made from',
        details: [new RegExp(`^${escape(server.issuer)}: code flow only, PKCE S256, private_key_jwt, every endpoint https \\(${escape(server.metadataUrl)}\\)$`)],
      },
      resourcePasses,
    ],
  },
  {
    name: 'the mock as shipped; a resource server that answers 401 with application/json, as authlib does (item 9)',
    server: { proxy: 'none', issuerAt: 'mock' }, resource: { unauthorized: 'json', queryToken: 'ignored' }, token: 'valid',
    expect: () => [
      {
        code: FLOWS, verdict: 'fail', spec: 'SPEC OAuth 4: "private_key_jwt at the token endpoint"; the table has the authorization code flow only',
        why: 'The mock advertises token_endpoint_auth_methods_supported ["none"] and the password grant.',
        details: [/^has token_endpoint_auth_methods_supported \["none"\], expected private_key_jwt among them$/, /^grant_types_supported has password, which the profile forbids; remove it$/],
      },
      {
        code: QUERY, verdict: 'warn', spec: 'SPEC Errors 3: "Error responses SHOULD use the media type application/problem+json"; RFC 6750 3: the resource server MUST include the WWW-Authenticate header, which it does',
        why: 'The 401 has the Bearer challenge RFC 6750 needs; only its type is not problem+json, a SHOULD.',
        details: [/^GET \/v1\/gebouwen without a token: the 401 has Content-Type: application\/json; charset=utf-8, expected application\/problem\+json \(SPEC: error responses SHOULD use it\); its Bearer challenge is right$/],
        absent: [/expected Bearer/],
      },
    ],
  },
  {
    name: 'the profile\'s metadata fetched over plain http from a proxy, naming its https issuer (item 7); the query token refused with Express\'s sendStatus(400) (item 10)',
    server: { proxy: 'http', issuerAt: 'mock', rewrite: profileMetadata }, resource: { unauthorized: 'problem+json', queryToken: 'refused-400' }, token: 'valid',
    expect: (server) => [
      {
        code: FLOWS, verdict: 'fail', spec: 'SPEC Transport 1: "All information is exchanged over TLS, everywhere and always"; RFC 8414 3.3: "If these values are not identical, the data contained in the response MUST NOT be used."',
        why: 'The metadata came over http, and names an issuer other than the one its URL was made from.',
        details: [
          new RegExp(`^GET ${escape(server.metadataUrl)} names issuer "${escape(server.issuer)}", expected http://127\\.0\\.0\\.1:\\d+: RFC 8414 section 3\\.3 forbids using metadata`),
          new RegExp(`^GET ${escape(server.metadataUrl)} came over plain HTTP, expected https`),
        ],
      },
      {
        code: QUERY, verdict: 'warn', spec: `${SPEC_QUERY} (refused is refused); RFC 6750 3.1: a request without a usable token gets 401 with the Bearer challenge, or 400 invalid_request`,
        why: 'The query token is refused, with a plain 400 and no Bearer challenge.',
        details: [/^GET \/v1\/gebouwen with the token in \?access_token= answers 400: refused, as SPEC requires, but RFC 6750 section 3\.1 answers/],
        absent: [/accepted in the query string/],
      },
    ],
  },
  {
    name: 'the profile\'s metadata through an https proxy that leaves the mock\'s own issuer in it (item 7); the query token refused with a 403 (item 10)',
    server: { proxy: 'https', issuerAt: 'mock', rewrite: profileMetadata }, resource: { unauthorized: 'problem+json', queryToken: 'refused-403' }, token: 'valid',
    expect: (server) => [
      {
        code: FLOWS, verdict: 'fail', spec: 'RFC 8414 3.3: "The issuer value returned MUST be identical to the authorization server\'s issuer identifier value into which the well-known URI string was inserted ... If these values are not identical, the data contained in the response MUST NOT be used."',
        why: 'The metadata at the proxy names the mock\'s issuer.',
        details: [new RegExp(`^GET ${escape(server.metadataUrl)} names issuer "${escape(server.issuer)}", expected https://127\\.0\\.0\\.1:\\d+: RFC 8414 section 3\\.3 forbids`)],
        absent: [/plain HTTP/],
      },
      {
        code: QUERY, verdict: 'warn', spec: `${SPEC_QUERY}; RFC 6750 3.1: 403 is for insufficient_scope, a request without a usable token gets 401`,
        why: 'The query token is refused, with a 403.',
        details: [/^GET \/v1\/gebouwen with the token in \?access_token= answers 403: refused, as SPEC requires, but RFC 6750 section 3\.1/, /is refused in the query string \(403\)/],
        absent: [/accepted in the query string/],
      },
    ],
  },
  {
    name: 'the profile\'s metadata without grant_types_supported (item 8); a resource server that takes the token from the query',
    server: { proxy: 'https', issuerAt: 'proxy', rewrite: (metadata) => { const profile = profileMetadata(metadata); delete profile.grant_types_supported; return profile; } },
    resource: { unauthorized: 'problem+json', queryToken: 'accepted' }, token: 'valid',
    expect: () => [
      {
        code: FLOWS, verdict: 'fail', spec: 'RFC 8414 2, grant_types_supported: "If omitted, the default value is ["authorization_code", "implicit"]"; SPEC OAuth 4: the authorization code flow only',
        why: 'Leaving the member out advertises the implicit grant.',
        details: [/^lacks grant_types_supported, so RFC 8414 section 2's default \["authorization_code","implicit"\] holds: the implicit grant, which the profile forbids/],
      },
      {
        code: QUERY, verdict: 'fail', spec: SPEC_QUERY,
        details: [/^GET \/v1\/gebouwen with the token in \?access_token= answers 200: the token is accepted in the query string, where a protected resource MUST NOT accept it/],
      },
    ],
  },
  {
    name: 'the mock as shipped behind a plain-http proxy that is its issuer; a conformant resource server given a token without the scope (item 11)',
    server: { proxy: 'http', issuerAt: 'proxy' }, resource: CONFORMANT_RESOURCE, token: 'without-scope',
    expect: () => [
      {
        code: FLOWS, verdict: 'fail', spec: 'SPEC Transport 1: "All information is exchanged over TLS, everywhere and always"; RFC 8414 2: issuer "a URL that uses the https scheme"',
        details: [/came over plain HTTP, expected https/, /^has issuer http:\/\/127\.0\.0\.1:\d+, expected an https URL$/, /^has token_endpoint_auth_methods_supported \["none"\]/],
      },
      {
        code: QUERY, verdict: 'pass', spec: `${SPEC_HEADER} ${SPEC_QUERY}; RFC 6750 3.1: insufficient_scope gets 403`,
        why: 'The header token is read (403 insufficient_scope, not a 401): the header is accepted; the same token in the query gets 401, a request without a token.',
        details: [/^GET \/v1\/gebouwen: 401 Bearer problem\+json without a token; the token in the Authorization header is read but does not grant access \(403, Bearer .*insufficient_scope.*\) and is refused in the query string$/],
        absent: [/works/],
      },
    ],
  },
  {
    name: 'the mock with an issuer that ends in "/" (its shouldIssuerUrlBeSuffixedWithATralingSlash option, as Auth0 issuers are) behind a proxy that makes its metadata the profile\'s',
    server: { ...PROFILE_BEHIND_PROXY, issuerWithSlash: true }, resource: CONFORMANT_RESOURCE, token: 'valid',
    expect: (server) => [
      {
        code: FLOWS, verdict: 'pass', spec: 'OpenID Connect Discovery 4 and RFC 8414 3.1: a terminating "/" of the issuer is removed before the well-known segment is added, so this metadata is the issuer\'s',
        details: [new RegExp(`^${escape(server.issuer)}: code flow only, PKCE S256, private_key_jwt, every endpoint https`), /^https:\/\/127\.0\.0\.1:\d+\/: /],
      },
      resourcePasses,
    ],
  },
  {
    name: 'a conformant resource server given an expired token (item 11)',
    server: PROFILE_BEHIND_PROXY, resource: CONFORMANT_RESOURCE, token: 'expired',
    expect: (server) => [
      {
        code: FLOWS, verdict: 'pass', spec: 'as in the first case: the same setup',
        details: [new RegExp(`^${escape(server.issuer)}: code flow only`)],
      },
      {
        code: QUERY, verdict: 'pass', spec: `RFC 6750 3.1: invalid_token "The access token provided is expired, revoked, malformed, or invalid"; the resource SHOULD respond with 401`,
        why: 'Refusing an expired token with 401 error="invalid_token" is right: the token is the user\'s to fix, the rest is judged.',
        details: [/^GET \/v1\/gebouwen: 401 Bearer problem\+json without a token$/, /^with a token not judged: the given token is refused as invalid \(401, WWW-Authenticate: Bearer .*error="invalid_token".*\), as RFC 6750 section 3\.1 has it/],
        absent: [/not accepted/],
      },
    ],
  },
];

const reports = new Map<string, { report: JsonReport; server: AuthorizationServer }>();

async function token(server: AuthorizationServer, kind: TokenKind): Promise<string> {
  if (kind === 'expired') return server.expiredToken(REQUIRED_SCOPE, 600);
  return issueToken(pki, server, kind === 'valid' ? REQUIRED_SCOPE : 'iets:anders');
}

async function run(labCase: LabCase): Promise<void> {
  const server = await startAuthorizationServer(pki, labCase.server);
  running.push(server);
  const resource = await startResourceServer(pki, server, labCase.resource);
  running.push(resource);
  const bearer = await token(server, labCase.token);
  const outcome = await adrCheck(resource.baseUrl, ['--format', 'json', '--ca', pki.caCertificate, '--oauth-metadata', server.metadataUrl, '--header', `Authorization: Bearer ${bearer}`, '--timeout', '5000'], { deadline: DEADLINE, killAfterMs: (DEADLINE + 15) * 1000 });
  if (outcome.stdout.trim() === '') throw new Error(`adr-check printed no report (exit ${outcome.code}): ${outcome.stderr}`);
  reports.set(labCase.name, { report: jsonReport(outcome), server });
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'adr-check-lab-oauth-'));
  pki = issueLabPki(folder);
  // Two at a time: the machine's cores are shared.
  for (let at = 0; at < LAB_CASES.length; at += 2) await Promise.all(LAB_CASES.slice(at, at + 2).map(run));
}, 300_000);

afterAll(async () => {
  await Promise.all(running.map((each) => each.close()));
  rmSync(folder, { recursive: true, force: true });
});

describe.each(LAB_CASES.map((labCase) => [labCase.name, labCase] as const))('%s', (name, labCase) => {
  test.each([FLOWS, QUERY])('%s gives the verdict its sentence gives', (code) => {
    const entry = reports.get(name);
    if (entry === undefined) throw new Error(`no report for ${name}`);
    const expectations = labCase.expect(entry.server).filter((expectation) => expectation.code === code);
    expect(expectations).toHaveLength(1);
    for (const expectation of expectations) expectVerdict(entry.report, expectation);
  });
});
