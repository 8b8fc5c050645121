import http from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { PinnedResolver } from './resolve.js';
import type { AddressPolicy } from './address-policy.js';

export interface ClientOptions {
  /** Per request: connect, TLS handshake and the whole response. */
  timeoutMs: number;
  /** Absolute time (ms since epoch) after which no request starts and running ones are aborted. */
  deadline: number;
  maxRequests: number;
  maxBodyBytes: number;
  concurrency: number;
  /** Extra headers sent with every request (credentials); their values are redacted in reports. */
  headers: Record<string, string>;
  ca?: string;
  insecure: boolean;
  /** Ask this DNS server (host or host:port) instead of the system's resolver. */
  dnsServer?: string;
  /** Which addresses may be connected to (docs/live/address-policy.md); default every address. */
  addressPolicy?: AddressPolicy;
}

export interface RequestSpec {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Documentation is fetched without the configured credentials. */
  anonymous?: boolean;
  /** Keep the whole body (up to --max-body); otherwise only its first EXCERPT_BYTES are kept. */
  keepBody?: boolean;
  /** Also keep the body's bytes as received (a digest needs them): only where a check computes one. */
  keepRaw?: boolean;
}

/** What is kept of a body nobody needs whole: enough for an excerpt and a stack-trace search. */
export const EXCERPT_BYTES = 8192;

export interface TlsInfo {
  protocol: string | null;
  authorized: boolean;
  authorizationError?: string;
  validTo?: string;
  subjectAltName?: string;
}

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  status?: number;
  /** Response headers by lower-case name. */
  headers: Record<string, string>;
  /** Each response header's name as the server spelled it, by lower-case name. */
  headerNames: Record<string, string>;
  /** How many fields of each response header came, by lower-case name (a repeated one is joined in `headers`). */
  headerCounts: Record<string, number>;
  /** The whole body when asked with keepBody, else its first EXCERPT_BYTES. */
  body: string;
  /** Bytes of body received (up to --max-body). */
  bodyBytes: number;
  /** The body's bytes as received, when asked with keepRaw (a digest needs them, not their UTF-8 reading). */
  rawBody?: Buffer;
  /** The body was cut at --max-body: the server sent more. */
  bodyTruncated: boolean;
  /** Set when no complete response was read: timeout, refused, TLS failure, budget. */
  error?: string;
  tls?: TlsInfo;
  durationMs: number;
}

/**
 * A small HTTP client for probing: node:http(s) rather than fetch, because fetch refuses TRACE
 * and follows redirects by default. It never follows redirects and bounds everything.
 */
export class HttpClient {
  private readonly requests: Semaphore;
  /** Whole bodies (up to --max-body each) in flight at once: memory is this times --max-body, not --concurrency times. */
  private readonly wholeBodies = new Semaphore(WHOLE_BODIES_AT_ONCE);
  private sent = 0;
  /** One address per host name for the whole run (no DNS rebinding between requests), admitted by the address policy. */
  readonly resolver: PinnedResolver;

  constructor(readonly options: ClientOptions) {
    this.resolver = new PinnedResolver(options.dnsServer, options.addressPolicy);
    this.requests = new Semaphore(options.concurrency);
  }

  get requestCount(): number {
    return this.sent;
  }

  async send(spec: RequestSpec): Promise<Exchange> {
    const requestHeaders = { ...(spec.anonymous ? {} : this.options.headers), ...spec.headers };
    if (this.sent >= this.options.maxRequests) return failed(spec, requestHeaders, `request budget of ${this.options.maxRequests} used up`);
    if (Date.now() >= this.options.deadline) return failed(spec, requestHeaders, 'overall deadline passed');
    this.sent += 1;
    const whole = spec.keepBody === true || spec.keepRaw === true;
    // Always in this order (whole bodies, then requests), so that two requests never wait on each other.
    if (whole) await this.wholeBodies.acquire();
    await this.requests.acquire();
    try {
      return await this.perform(spec, requestHeaders);
    } finally {
      this.requests.release();
      if (whole) this.wholeBodies.release();
    }
  }

  private perform(spec: RequestSpec, requestHeaders: Record<string, string>): Promise<Exchange> {
    const started = Date.now();
    const timeout = Math.max(1, Math.min(this.options.timeoutMs, this.options.deadline - started));
    return new Promise((resolve) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (exchange: Omit<Exchange, 'durationMs' | 'method' | 'url' | 'requestHeaders'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ method: spec.method, url: spec.url, requestHeaders, durationMs: Date.now() - started, ...exchange });
      };
      let url: URL;
      try {
        url = new URL(spec.url);
      } catch {
        finish({ ...NO_RESPONSE, error: `not a URL: ${spec.url}` });
        return;
      }
      const transport = url.protocol === 'https:' ? https : http;
      let request: http.ClientRequest | undefined;
      timer = setTimeout(() => {
        request?.destroy();
        finish({ ...NO_RESPONSE, error: `no complete response within ${timeout} ms` });
      }, timeout);
      // The address is resolved and admitted before any socket exists: node:net asks `lookup` for
      // a host name but connects to an IP literal directly, so a refused literal must stop here.
      this.resolver.resolve(url.hostname).then(() => {
        if (settled) return;
        try {
          request = transport.request(url, {
            method: spec.method,
            // `*/*` as curl sends it: without an Accept some servers (MapServer) answer HTML. A body is
            // always framed: Node adds Content-Length only for the methods that usually carry one.
            headers: { 'user-agent': 'adr-check', accept: '*/*', ...requestHeaders, ...(spec.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(spec.body)) }) },
            ca: this.options.ca,
            rejectUnauthorized: !this.options.insecure,
            agent: false,
            lookup: this.resolver.lookup,
            servername: isIpAddress(url.hostname) ? undefined : url.hostname,
          });
        } catch (error) {
          // Node refuses a header value with CR, LF or other characters HTTP forbids before sending anything.
          finish({ ...NO_RESPONSE, error: `not sent: ${describeError(error as Error)}` });
          return;
        }
        this.exchangeOn(request, spec, finish);
      }, (error: Error) => finish({ ...NO_RESPONSE, error: describeError(error) }));
    });
  }

  /** Reads the answer to a request that has been made, bounded as the client's options say. */
  private exchangeOn(request: http.ClientRequest, spec: RequestSpec, finish: (exchange: Omit<Exchange, 'durationMs' | 'method' | 'url' | 'requestHeaders'>) => void): void {
    request.on('error', (error) => finish({ ...NO_RESPONSE, error: describeError(error) }));
    request.on('response', (response) => {
      const body = new BoundedBody(this.options.maxBodyBytes, spec.keepBody === true || spec.keepRaw === true ? this.options.maxBodyBytes : EXCERPT_BYTES, spec.keepRaw === true);
      const tls = tlsInfo(response.socket as TLSSocket);
      const done = () => finish({ status: response.statusCode, headers: flattenHeaders(response.headers), headerNames: spellingOf(response.rawHeaders), headerCounts: countsOf(response.rawHeaders), ...body.result(), tls });
      response.on('data', (chunk: Buffer) => {
        if (body.add(chunk) === 'full') {
          response.destroy();
          done();
        }
      });
      response.on('end', done);
      response.on('error', (error) => finish({ status: response.statusCode, headers: flattenHeaders(response.headers), headerNames: spellingOf(response.rawHeaders), headerCounts: countsOf(response.rawHeaders), ...body.result(), error: describeError(error) }));
    });
    if (spec.body !== undefined) request.write(spec.body);
    request.end();
  }
}

const WHOLE_BODIES_AT_ONCE = 2;

/** At most `limit` holders at once; the others wait in order. */
class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(() => { this.active += 1; resolve(); }));
  }

  release(): void {
    this.active -= 1;
    this.waiting.shift()?.();
  }
}

const NO_RESPONSE = { headers: {}, headerNames: {}, headerCounts: {}, body: '', bodyBytes: 0, bodyTruncated: false } as const;

function failed(spec: RequestSpec, requestHeaders: Record<string, string>, error: string): Exchange {
  return { method: spec.method, url: spec.url, requestHeaders, ...NO_RESPONSE, error, durationMs: 0 };
}

/**
 * A body read up to `limit` bytes of which only the first `keep` are held: memory follows what
 * the checks need, not what the server sends. Reports 'full' once the limit is reached.
 */
class BoundedBody {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private received = 0;
  private truncated = false;

  constructor(private readonly limit: number, private readonly keep: number, private readonly keepRaw: boolean) {}

  add(chunk: Buffer): 'more' | 'full' {
    if (this.truncated) return 'full';
    const take = chunk.subarray(0, this.limit - this.received);
    this.received += take.length;
    if (this.kept < this.keep) {
      const held = take.subarray(0, this.keep - this.kept);
      this.chunks.push(Buffer.from(held));
      this.kept += held.length;
    }
    if (take.length < chunk.length) this.truncated = true;
    return this.truncated ? 'full' : 'more';
  }

  result(): { body: string; bodyBytes: number; bodyTruncated: boolean; rawBody?: Buffer } {
    const raw = Buffer.concat(this.chunks);
    return { body: raw.toString('utf8'), bodyBytes: this.received, bodyTruncated: this.truncated, ...(this.keepRaw ? { rawBody: raw } : {}) };
  }
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** rawHeaders is [name, value, name, value, ...] as received. */
function spellingOf(rawHeaders: string[]): Record<string, string> {
  const names: Record<string, string> = {};
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index] ?? '';
    names[name.toLowerCase()] ??= name;
  }
  return names;
}

function countsOf(rawHeaders: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = (rawHeaders[index] ?? '').toLowerCase();
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

function tlsInfo(socket: TLSSocket): TlsInfo | undefined {
  if (typeof socket.getProtocol !== 'function') return undefined;
  const certificate = socket.getPeerCertificate();
  return {
    protocol: socket.getProtocol(),
    authorized: socket.authorized,
    authorizationError: socket.authorizationError === null ? undefined : String(socket.authorizationError ?? '') || undefined,
    validTo: certificate?.valid_to,
    subjectAltName: certificate?.subjectaltname,
  };
}

/**
 * One clean line. OpenSSL's errors come as `write EPROTO 40F8...:error:0A000410:SSL
 * routines:ssl3_read_bytes:sslv3 alert handshake failure:../deps/...c:1605:SSL alert number 40`:
 * the reason and the alert are what a reader can use.
 */
export function describeError(error: Error & { code?: string }): string {
  const openssl = /error:[0-9A-Fa-f]+:[^:]*:[^:]*:([^:\n]+)(?::[^\n]*?(SSL alert number \d+))?/.exec(error.message);
  if (openssl !== null) return `TLS error: ${openssl[1]?.trim()}${openssl[2] === undefined ? '' : ` (${openssl[2]})`}`;
  const message = error.message.split('\n')[0] ?? '';
  return error.code !== undefined && !message.startsWith(error.code) ? `${error.code}: ${message}` : message;
}

function isIpAddress(hostname: string): boolean {
  return /^[\d.]+$/.test(hostname) || hostname.includes(':') || hostname.startsWith('[');
}
