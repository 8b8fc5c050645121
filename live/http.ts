import http from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';

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
}

export interface RequestSpec {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Documentation is fetched without the configured credentials. */
  anonymous?: boolean;
}

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
  headers: Record<string, string>;
  body: string;
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
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private sent = 0;

  constructor(readonly options: ClientOptions) {}

  get requestCount(): number {
    return this.sent;
  }

  async send(spec: RequestSpec): Promise<Exchange> {
    const requestHeaders = { ...(spec.anonymous ? {} : this.options.headers), ...spec.headers };
    if (this.sent >= this.options.maxRequests) return failed(spec, requestHeaders, `request budget of ${this.options.maxRequests} used up`);
    if (Date.now() >= this.options.deadline) return failed(spec, requestHeaders, 'overall deadline passed');
    this.sent += 1;
    await this.acquire();
    try {
      return await this.perform(spec, requestHeaders);
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.options.concurrency) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(() => { this.active += 1; resolve(); }));
  }

  private release(): void {
    this.active -= 1;
    this.waiting.shift()?.();
  }

  private perform(spec: RequestSpec, requestHeaders: Record<string, string>): Promise<Exchange> {
    const started = Date.now();
    const timeout = Math.max(1, Math.min(this.options.timeoutMs, this.options.deadline - started));
    return new Promise((resolve) => {
      let settled = false;
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
        finish({ headers: {}, body: '', bodyTruncated: false, error: `not a URL: ${spec.url}` });
        return;
      }
      const transport = url.protocol === 'https:' ? https : http;
      const request = transport.request(url, {
        method: spec.method,
        headers: { 'user-agent': 'adr-check', ...requestHeaders },
        ca: this.options.ca,
        rejectUnauthorized: !this.options.insecure,
        agent: false,
        servername: isIpAddress(url.hostname) ? undefined : url.hostname,
      });
      const timer = setTimeout(() => {
        request.destroy();
        finish({ headers: {}, body: '', bodyTruncated: false, error: `no complete response within ${timeout} ms` });
      }, timeout);
      request.on('error', (error) => finish({ headers: {}, body: '', bodyTruncated: false, error: describeError(error) }));
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const tls = tlsInfo(response.socket as TLSSocket);
        const done = () => finish({ status: response.statusCode, headers: flattenHeaders(response.headers), body: Buffer.concat(chunks).toString('utf8'), bodyTruncated: truncated, tls });
        response.on('data', (chunk: Buffer) => {
          if (truncated) return;
          const room = this.options.maxBodyBytes - size;
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, room));
            truncated = true;
            response.destroy();
            done();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', done);
        response.on('error', (error) => finish({ status: response.statusCode, headers: flattenHeaders(response.headers), body: '', bodyTruncated: false, error: describeError(error) }));
      });
      if (spec.body !== undefined) request.write(spec.body);
      request.end();
    });
  }
}

function failed(spec: RequestSpec, requestHeaders: Record<string, string>, error: string): Exchange {
  return { method: spec.method, url: spec.url, requestHeaders, headers: {}, body: '', bodyTruncated: false, error, durationMs: 0 };
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
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

function describeError(error: Error & { code?: string }): string {
  return error.code !== undefined ? `${error.code}: ${error.message}` : error.message;
}

function isIpAddress(hostname: string): boolean {
  return /^[\d.]+$/.test(hostname) || hostname.includes(':') || hostname.startsWith('[');
}
