import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { PROBLEMS, problem, type Reply } from './http.js';

/**
 * Write access: one bearer token, set when the server starts. The description declares the
 * operations that need it (a `security` requirement without the empty `{}`); every other
 * operation takes a token or leaves it, as the description's top-level `security` says.
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

/**
 * The 401 for a write without the right token, or undefined when the token is right. RFC 6750
 * 3.1: no error code when the request carried no bearer credentials, `invalid_token` when it
 * carried a wrong one.
 */
export function writeRefusal(authorization: string | undefined, writeToken: string, instance: string): Reply | undefined {
  const token = bearerToken(authorization);
  if (token !== undefined && tokensMatch(token, writeToken)) return undefined;
  const reply = token === undefined
    ? problem(PROBLEMS.nietGeauthenticeerd, 'Voor deze bewerking is een access token nodig: stuur het in de Authorization-header (Bearer).', instance)
    : problem(PROBLEMS.nietGeauthenticeerd, 'Het access token is ongeldig.', instance);
  const challenge = token === undefined ? BEARER_CHALLENGE : `${BEARER_CHALLENGE}, error="invalid_token"`;
  return { ...reply, headers: { 'WWW-Authenticate': challenge } };
}
