import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, type JWK } from 'jose';
import { PROBLEMS, problem, type Reply } from './http.js';

/**
 * The resource server's side of OAuth. The description declares the operations that need a
 * token (a `security` requirement without the empty `{}`) and the scopes each one needs; every
 * other operation takes a token or leaves it, as the description's top-level `security` says.
 *
 * A token is good when it is either an access token of the reference API's authorization server
 * (a JWT, RFC 9068: signature, issuer, audience the API's base URL, not expired, a registered
 * client) or the write token configured at start, which stands for a token with every scope.
 * It has to come in the Authorization header (RFC 6750 2.1): a token in the query string is
 * never accepted (SPEC.md, OAuth 2.0 profile, item 6), not even a good one.
 */

const REALM = 'monumenten';
export const BEARER_CHALLENGE = `Bearer realm="${REALM}"`;

// RFC 6750 2.1: the b64token syntax of a bearer token.
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const MIN_TOKEN_LENGTH = 16;

/** Why a token cannot serve as the write token, or undefined when it can. */
export function writeTokenProblem(token: string): string | undefined {
  if (!B64TOKEN.test(token)) return 'the write token may only hold A-Z a-z 0-9 - . _ ~ + / (and = at the end), per RFC 6750';
  if (token.length < MIN_TOKEN_LENGTH) return `the write token must be at least ${MIN_TOKEN_LENGTH} characters long`;
  return undefined;
}

/** 256 random bits, base64url: valid b64token, and unguessable. */
export function generateWriteToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The token of `Authorization: Bearer <token>`; undefined when the header carries no bearer credentials. */
export function bearerToken(authorization: string | undefined): string | undefined {
  // RFC 9110 11.1: the scheme name is case-insensitive.
  const match = /^bearer +(.*)$/i.exec(authorization?.trim() ?? '');
  return match?.[1]?.trim();
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Constant time: timingSafeEqual needs equal lengths, and comparing SHA-256 digests gives that
 * without first comparing lengths, which would tell a guesser how long the token is.
 */
export function tokensMatch(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** What a token grants: its scopes and the client it was issued to. */
export interface Grant {
  scopes: ReadonlySet<string>;
  clientId?: string;
}

export interface TokenVerifier {
  /** The grant of a good token; undefined for any other. */
  verify(token: string): Promise<Grant | undefined>;
}

export interface JwtAccessTokens {
  issuer: string;
  /** The audience the tokens must name: the API's base URL. */
  resource: string;
  jwks: { keys: JWK[] };
  clientIds: string[];
}

/** Access tokens of the authorization server, checked as RFC 9068 says, plus the configured write token. */
export function tokenVerifier(writeToken: string, allScopes: string[], accessTokens: JwtAccessTokens | undefined): TokenVerifier {
  const keys = accessTokens === undefined ? undefined : createLocalJWKSet(accessTokens.jwks);
  return {
    async verify(token) {
      if (tokensMatch(token, writeToken)) return { scopes: new Set(allScopes) };
      if (keys === undefined || accessTokens === undefined || token.split('.').length !== 3) return undefined;
      try {
        const { payload } = await jwtVerify(token, keys, {
          issuer: accessTokens.issuer,
          audience: accessTokens.resource,
          typ: 'at+jwt',
          algorithms: ['ES256'],
          requiredClaims: ['exp', 'client_id'],
        });
        // RFC 9068 2.2: client_id; SPEC.md item 7: the authorized party is a client the server knows.
        if (typeof payload.client_id !== 'string' || !accessTokens.clientIds.includes(payload.client_id)) return undefined;
        const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
        return { scopes: new Set(scopes), clientId: payload.client_id };
      } catch {
        return undefined;
      }
    },
  };
}

export interface Credentials {
  /** The Authorization header. */
  authorization: string | undefined;
  /** The `access_token` query parameter, when the request has one. */
  queryToken: string | undefined;
}

function unauthorized(detail: string, instance: string, error?: string): Reply {
  const reply = problem(PROBLEMS.nietGeauthenticeerd, detail, instance);
  return { ...reply, headers: { 'WWW-Authenticate': error === undefined ? BEARER_CHALLENGE : `${BEARER_CHALLENGE}, error="${error}"` } };
}

/**
 * Why a request may not do an operation that needs one of `scopeSets`, or undefined when it may.
 * RFC 6750 3.1: 401 without an error code when the request carried no bearer credentials,
 * `invalid_token` when it carried a bad one, 403 `insufficient_scope` naming the scope needed
 * when the token lacks it. `acceptQueryToken` is the `token-in-query-accepted` fault.
 */
export async function accessRefusal(credentials: Credentials, scopeSets: string[][], verifier: TokenVerifier, instance: string, acceptQueryToken = false): Promise<Reply | undefined> {
  if (credentials.queryToken !== undefined && !acceptQueryToken) {
    return unauthorized('Een access token in de query string wordt nooit aanvaard: stuur het in de Authorization-header (Bearer).', instance);
  }
  const token = bearerToken(credentials.authorization) ?? (acceptQueryToken ? credentials.queryToken : undefined);
  if (token === undefined) return unauthorized('Voor deze bewerking is een access token nodig: stuur het in de Authorization-header (Bearer).', instance);
  const grant = await verifier.verify(token);
  if (grant === undefined) return unauthorized('Het access token is ongeldig.', instance, 'invalid_token');
  if (scopeSets.length === 0 || scopeSets.some((scopes) => scopes.every((scope) => grant.scopes.has(scope)))) return undefined;
  const needed = scopeSets[0] ?? [];
  const reply = problem(PROBLEMS.onvoldoendeRechten, `Het access token geeft geen toegang tot deze bewerking: daarvoor is de scope ${needed.join(' en ')} nodig.`, instance);
  return { ...reply, headers: { 'WWW-Authenticate': `${BEARER_CHALLENGE}, error="insufficient_scope", scope="${needed.join(' ')}"` } };
}
