import { randomUUID } from 'node:crypto';
import { request } from 'node:https';
import { importJWK, SignJWT, type JWK } from 'jose';

/**
 * The client side, for tests, `check:demo` and the command line: an access token from the
 * reference API's authorization server without a browser, by the client credentials grant with
 * private_key_jwt client authentication (RFC 7523): a JWT signed with the client's private key,
 * issuer and subject the client id, audience the authorization server's issuer.
 */

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export interface TokenClient {
  /** PEM the client trusts for the authorization server's TLS certificate. */
  caPem: string;
  oauth: { issuer: string; tokenEndpoint: string; clientId: string; clientPrivateJwk: JWK };
}

export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope?: string;
}

/** A fresh client assertion: valid one minute, with a unique jti (the server refuses a replay). */
export async function clientAssertion(client: TokenClient): Promise<string> {
  const { clientId, clientPrivateJwk, issuer } = client.oauth;
  const alg = clientPrivateJwk.alg ?? 'ES256';
  return new SignJWT({})
    .setProtectedHeader({ alg, ...(clientPrivateJwk.kid === undefined ? {} : { kid: clientPrivateJwk.kid }) })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(issuer)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime('1m')
    .sign(await importJWK(clientPrivateJwk, alg));
}

/** POSTs a form to the token endpoint; the status and the JSON it answers. */
export function tokenRequest(client: TokenClient, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const body = new URLSearchParams(form).toString();
    const outgoing = request(client.oauth.tokenEndpoint, {
      method: 'POST',
      ca: client.caPem,
      agent: false,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json', 'Content-Length': String(Buffer.byteLength(body)) },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        try {
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
        } catch (error) {
          reject(error);
        }
      });
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** An access token by the client credentials grant, for `scope` (space-separated; default none). */
export async function clientCredentialsToken(client: TokenClient, scope?: string): Promise<TokenResponse> {
  const { status, body } = await tokenRequest(client, {
    grant_type: 'client_credentials',
    ...(scope === undefined ? {} : { scope }),
    client_assertion_type: CLIENT_ASSERTION_TYPE,
    client_assertion: await clientAssertion(client),
  });
  if (status !== 200 || typeof body.access_token !== 'string') {
    throw new Error(`the token endpoint answered ${status}: ${String(body.error ?? '')} ${String(body.error_description ?? '')}`.trim());
  }
  return body as unknown as TokenResponse;
}
