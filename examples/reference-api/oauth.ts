import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Adapter, AdapterPayload, Configuration, errors as Errors } from 'oidc-provider';

/**
 * The authorization server of the reference API: oidc-provider (the certified Node.js OAuth 2.0
 * and OpenID Connect implementation), configured per the NL GOV Assurance profile for OAuth 2.0
 * and mounted on the API's own HTTPS server under /oauth, so the description's oauth2 flow can
 * name it with relative URLs. Nothing of the protocol is written here: only the configuration,
 * the mount and a storage adapter.
 *
 * - issuer `https://<host>:<port>/oauth`; metadata at `/oauth/.well-known/openid-configuration`
 *   (OpenID Connect Discovery) and at `/.well-known/oauth-authorization-server/oauth` (RFC 8414,
 *   the well-known segment inserted before the issuer's path), the same document;
 * - response type `code` only (no implicit), PKCE required with S256 (oidc-provider knows no
 *   `plain`), client authentication `private_key_jwt` only, no password grant;
 * - one client, registered at start with its public key; its private key is handed to the caller;
 * - `client_credentials` for that client, so a token can be had without a browser: the profile
 *   calls that grant out of scope, not forbidden. No refresh token is ever issued with it;
 * - access tokens are JWTs (RFC 9068) for one resource, the API's base URL, carrying the scopes
 *   the description defines, ES256-signed; the API checks them itself (auth.ts).
 *
 * The reference API has no end users, so there is no login page: an authorization request is
 * checked (client, redirect URI, response type, PKCE) and then stops at the interaction.
 */

export const OAUTH_MOUNT = '/oauth';
/** RFC 8414 section 3: `/.well-known/oauth-authorization-server` inserted before the issuer's path. */
export const RFC8414_PATH = `/.well-known/oauth-authorization-server${OAUTH_MOUNT}`;
const DISCOVERY_PATH = '/.well-known/openid-configuration';

export const CLIENT_ID = 'monumenten-demo';
export const REDIRECT_URI = 'https://app.example.nl/callback';
/** Lifetime of access tokens, seconds; SPEC.md's example uses 15 minutes for a sensitive scope. */
export const ACCESS_TOKEN_TTL = 900;

export interface OAuthFaults {
  /** `implicit-grant-in-metadata`: response type `id_token token` enabled, so the metadata lists it and the implicit grant. */
  implicitInMetadata: boolean;
  /** `pkce-plain-only`: the metadata says code_challenge_methods_supported ["plain"]. */
  pkcePlainOnly: boolean;
}

export interface OAuthClient {
  clientId: string;
  /** The client's private key (ES256 JWK) for its private_key_jwt assertions. */
  privateJwk: JWK;
  redirectUri: string;
}

export interface AuthorizationServer {
  issuer: string;
  /** The resource (audience) its access tokens are for: the API's base URL. */
  resource: string;
  /** The public keys its access tokens are signed with (what jwks_uri serves). */
  jwks: { keys: JWK[] };
  client: OAuthClient;
  /** Answers the request when it is for the authorization server; false when it is not. */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
}

export interface AuthorizationServerOptions {
  issuer: string;
  resource: string;
  /** The scopes the resource knows (the description's), all of which the client may ask for. */
  scopes: string[];
  faults: OAuthFaults;
  /** The headers every response of the server carries (API-Version, security headers). */
  commonHeaders: (secure: boolean) => Record<string, string>;
}

// ---------------------------------------------------------------------------------------------
// Storage: oidc-provider's own in-memory adapter is meant for quick starts and says so on every
// start; this one keeps the same few things (interactions, codes, grants, replay detection of
// client assertions) per server, bounded, and forgets them when they expire.

const MAX_ENTRIES = 10_000;

interface Entry { payload: AdapterPayload; expiresAt: number }

class MemoryAdapter implements Adapter {
  readonly #model: string;
  readonly #store: Map<string, Entry>;

  constructor(model: string, store: Map<string, Entry>) {
    this.#model = model;
    this.#store = store;
  }

  #key(id: string): string {
    return `${this.#model}:${id}`;
  }

  #get(key: string): AdapterPayload | undefined {
    const entry = this.#store.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.#store.delete(key);
      return undefined;
    }
    return entry.payload;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    if (this.#store.size >= MAX_ENTRIES) {
      const now = Date.now();
      for (const [key, entry] of this.#store) if (entry.expiresAt <= now) this.#store.delete(key);
      // Still full: the oldest go first (a Map iterates in insertion order), never the client.
      for (const key of this.#store.keys()) {
        if (this.#store.size < MAX_ENTRIES) break;
        if (!key.startsWith('Client:')) this.#store.delete(key);
      }
    }
    const expiresAt = expiresIn === undefined ? Number.POSITIVE_INFINITY : Date.now() + expiresIn * 1000;
    this.#store.set(this.#key(id), { payload, expiresAt });
    if (this.#model === 'Session' && typeof payload.uid === 'string') this.#store.set(`sessionUid:${payload.uid}`, { payload: { id }, expiresAt });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.#get(this.#key(id));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const id = this.#get(`sessionUid:${uid}`)?.id;
    return typeof id === 'string' ? this.find(id) : undefined;
  }

  async findByUserCode(): Promise<undefined> {
    return undefined; // no device flow
  }

  async consume(id: string): Promise<void> {
    const payload = this.#get(this.#key(id));
    if (payload !== undefined) payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    this.#store.delete(this.#key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [key, entry] of this.#store) if (entry.payload.grantId === grantId) this.#store.delete(key);
  }
}

// ---------------------------------------------------------------------------------------------

async function es256Key(kid: string): Promise<{ privateJwk: JWK; publicJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const common = { kid, alg: 'ES256', use: 'sig' };
  return { privateJwk: { ...(await exportJWK(privateKey)), ...common }, publicJwk: { ...(await exportJWK(publicKey)), ...common } };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function configuration(options: AuthorizationServerOptions, serverKey: JWK, clientKey: JWK, errors: typeof Errors): Configuration {
  const store = new Map<string, Entry>();
  const scope = options.scopes.join(' ');
  // The client is registered in the adapter's store rather than as a static client: oidc-provider
  // copies static clients with structuredClone, whose objects fail its own plain-object test where
  // the code runs in another realm than the global functions (a test runner's vm context).
  const client: AdapterPayload = {
    client_id: CLIENT_ID,
    token_endpoint_auth_method: 'private_key_jwt',
    token_endpoint_auth_signing_alg: 'ES256',
    jwks: { keys: [clientKey] },
    grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
    response_types: ['code'],
    redirect_uris: [REDIRECT_URI],
    id_token_signed_response_alg: 'ES256',
  };
  store.set(`Client:${CLIENT_ID}`, { payload: client, expiresAt: Number.POSITIVE_INFINITY });
  return {
    adapter: (model: string) => new MemoryAdapter(model, store),
    jwks: { keys: [serverKey] },
    clientAuthMethods: ['private_key_jwt'],
    // With the fault, the OpenID Connect implicit flow that issues an access token at the
    // authorization endpoint: the metadata then lists it and, because of it, the implicit grant.
    responseTypes: options.faults.implicitInMetadata ? ['code', 'id_token token'] : ['code'],
    pkce: { required: () => true },
    scopes: ['openid', 'offline_access'],
    enabledJWA: {
      clientAuthSigningAlgValues: ['PS256', 'ES256'],
      idTokenSigningAlgValues: ['ES256'],
      requestObjectSigningAlgValues: ['PS256', 'ES256'],
    },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL,
      ClientCredentials: ACCESS_TOKEN_TTL,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: 24 * 3600,
      Interaction: 600,
      Session: 24 * 3600,
      Grant: 24 * 3600,
    },
    interactions: { url: (_ctx, interaction) => `${OAUTH_MOUNT}/interaction/${interaction.uid}` },
    // An error that cannot go back to the client (an unknown client or redirect URI): JSON, as
    // every other answer of this server, instead of an HTML page.
    renderError: (ctx, out) => {
      ctx.type = 'application/json';
      ctx.body = { error: out.error, ...(out.error_description === undefined ? {} : { error_description: out.error_description }) };
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== options.resource) throw new errors.InvalidTarget();
          return { scope, audience: options.resource, accessTokenFormat: 'jwt', accessTokenTTL: ACCESS_TOKEN_TTL, jwt: { sign: { alg: 'ES256' } } };
        },
      },
    },
  };
}

/** Path and query of a request URL, or undefined when it is not origin-form. */
function pathOf(url: string | undefined): { path: string; search: string } | undefined {
  if (url === undefined || !url.startsWith('/')) return undefined;
  const query = url.indexOf('?');
  return query === -1 ? { path: url, search: '' } : { path: url.slice(0, query), search: url.slice(query) };
}

export async function startAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  // Loaded when a server starts, not when the command line is only read: oidc-provider 9 says at
  // load, on Node.js before 22 LTS, that it supports 22 LTS and later (this package runs on 20).
  const [{ Provider, errors }, server, client] = await Promise.all([import('oidc-provider'), es256Key('as-1'), es256Key('client-1')]);
  const provider = new Provider(options.issuer, configuration(options, server.privateJwk, client.publicJwk, errors));
  provider.use(async (ctx, next) => {
    await next();
    if (options.faults.pkcePlainOnly && ctx.oidc?.route === 'discovery' && isRecord(ctx.body)) {
      ctx.body = { ...ctx.body, code_challenge_methods_supported: ['plain'] };
    }
    ctx.set(options.commonHeaders(ctx.secure));
  });
  const callback = provider.callback();
  return {
    issuer: options.issuer,
    resource: options.resource,
    jwks: { keys: [server.publicJwk] },
    client: { clientId: CLIENT_ID, privateJwk: client.privateJwk, redirectUri: REDIRECT_URI },
    handle(request, response) {
      const target = pathOf(request.url);
      if (target === undefined) return false;
      const { path, search } = target;
      // Express-style mounting: oidc-provider finds its mount path from originalUrl minus url.
      const incoming = request as IncomingMessage & { originalUrl?: string };
      if (path === RFC8414_PATH) {
        incoming.originalUrl = `${OAUTH_MOUNT}${DISCOVERY_PATH}${search}`;
        incoming.url = `${DISCOVERY_PATH}${search}`;
      } else if (path === OAUTH_MOUNT || path.startsWith(`${OAUTH_MOUNT}/`)) {
        incoming.originalUrl = request.url;
        incoming.url = `${path.slice(OAUTH_MOUNT.length) || '/'}${search}`;
      } else {
        return false;
      }
      void callback(request, response);
      return true;
    },
  };
}
