import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AllowEntryError, createAddressPolicy } from '../live/address-policy.js';

/** Every limit of the web checker, each a flag with the default documented in docs/web.md. */
export interface ServeOptions {
  host: string;
  port: number;
  /** Where the database lives. */
  dataDir: string;
  /** Checks running at once; the rest wait in the queue. */
  maxRunning: number;
  /** Checks waiting at most; a submission beyond is answered 503 with Retry-After. */
  maxQueued: number;
  /** Submissions per client per minute. */
  ratePerMinute: number;
  /** Milliseconds a client has to send one whole request, headers and body: a client that trickles it holds no connection for longer. */
  requestTimeoutMs: number;
  /** Bytes of an uploaded or pasted description at most. */
  maxUploadBytes: number;
  /** URLs of one batch at most. */
  maxBatch: number;
  /** Per check, as adr-check's own flags. */
  deadlineMs: number;
  timeoutMs: number;
  maxRequests: number;
  maxBodyBytes: number;
  concurrency: number;
  lintMemoryMb: number;
  /** Days an uploaded description is kept (reports stay; the description goes). */
  retentionDays: number;
  /** Targets on private, loopback, link-local, ... addresses are allowed (an internal deployment). */
  allowPrivate: boolean;
  /** IP addresses, CIDR ranges (10.1.0.0/16) and host names allowed although private. */
  allow: string[];
  /** Ask this DNS server (ip or ip:port) for the targets' names instead of the system's resolver. */
  dnsServer?: string;
  /** CA (PEM) trusted for targets besides the system's. */
  ca?: string;
  /** The web checker's own TLS certificate and key (PEM); otherwise plain HTTP (behind a proxy). */
  tls?: { cert: string; key: string };
  /** Behind a reverse proxy: the client's address is taken from X-Forwarded-For. */
  trustProxy: boolean;
  /** Origins a browser app may call the JSON API from (CORS); /openapi.json is open to all. */
  corsOrigins: string[];
}

export const SERVE_HELP = `adr-check serve: the web checker (docs/web.md)

usage: adr-check serve [options]

options:
  --host <address>         listen address (default 127.0.0.1; 0.0.0.0 for all)
  --port <n>               listen port (default 8080)
  --data <dir>             the database (default ./adr-check-data)
  --cert <file> --key <file>  serve HTTPS with this certificate and key (else plain HTTP, behind a proxy)
  --trust-proxy            behind one proxy: the client is the address it appended to X-Forwarded-For
  --max-running <n>        checks at once (default 2)
  --max-queued <n>         checks waiting at most; more is 503 with Retry-After (default 20)
  --rate <n>               submissions per client per minute (default 10)
  --max-upload <bytes>     an uploaded or pasted description at most (default 2000000)
  --max-batch <n>          URLs in one batch at most (default 50)
  --deadline <s>           per check, the static lint included (default 60)
  --timeout <ms>           per request (default 5000)
  --max-requests <n>       requests per check at most (default 300)
  --max-body <bytes>       bytes read of one body at most (default 5000000)
  --concurrency <n>        requests at once per check (default 8)
  --lint-memory <mb>       heap of one check's static lint (default 512)
  --request-timeout <s>    a client's whole request (headers and body) within this, else 408 (default 60)
  --retention-days <n>     days an uploaded description is kept (default 30)
  --allow-private          allow targets on private and loopback addresses (internal deployments)
  --allow <entry>          allow this address, CIDR range or host name although private; repeatable
  --ca <file>              trust this CA (PEM) for targets, besides the system's
  --dns-server <ip>        resolve the targets' names with this DNS server (ip or ip:port)
  --cors-origin <origin>   a browser origin allowed to call the JSON API; repeatable
  -h, --help               this text`;

export class ServeUsageError extends Error {}

const DEFAULTS = {
  host: '127.0.0.1', port: '8080', data: 'adr-check-data', 'max-running': '2', 'max-queued': '20', rate: '10', 'max-upload': '2000000',
  'max-batch': '50', deadline: '60', timeout: '5000', 'max-requests': '300', 'max-body': '5000000', concurrency: '8', 'lint-memory': '512', 'retention-days': '30',
  'request-timeout': '60',
} as const;

export function parseServeArgs(argv: string[]): ServeOptions | 'help' {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...Object.fromEntries(Object.entries(DEFAULTS).map(([name, value]) => [name, { type: 'string' as const, default: value }])),
      cert: { type: 'string' },
      key: { type: 'string' },
      ca: { type: 'string' },
      'dns-server': { type: 'string' },
      allow: { type: 'string', multiple: true, default: [] },
      'cors-origin': { type: 'string', multiple: true, default: [] },
      'allow-private': { type: 'boolean', default: false },
      'trust-proxy': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help === true) return 'help';
  if (positionals.length > 0) throw new ServeUsageError(`serve takes no arguments, only options: ${positionals.join(' ')}. adr-check serve --help lists them`);
  const given = values as Record<string, unknown>;
  const text = (name: keyof typeof DEFAULTS) => String(given[name]);
  const number = (name: keyof typeof DEFAULTS) => positive(name, text(name));
  if ((values.cert === undefined) !== (values.key === undefined)) throw new ServeUsageError('--cert and --key go together: give both or neither');
  const allow = values.allow as string[];
  try {
    createAddressPolicy({ allow });
  } catch (error) {
    if (error instanceof AllowEntryError) throw new ServeUsageError(`--allow: ${error.message}`);
    throw error;
  }
  const corsOrigins = (values['cors-origin'] as string[]).map(origin);
  return {
    host: text('host'),
    port: positive('port', text('port'), true),
    dataDir: text('data'),
    maxRunning: number('max-running'),
    maxQueued: number('max-queued'),
    ratePerMinute: number('rate'),
    maxUploadBytes: number('max-upload'),
    maxBatch: number('max-batch'),
    deadlineMs: number('deadline') * 1000,
    requestTimeoutMs: number('request-timeout') * 1000,
    timeoutMs: number('timeout'),
    maxRequests: number('max-requests'),
    maxBodyBytes: number('max-body'),
    concurrency: number('concurrency'),
    lintMemoryMb: number('lint-memory'),
    retentionDays: number('retention-days'),
    allowPrivate: values['allow-private'] === true,
    allow,
    ...(values['dns-server'] === undefined ? {} : { dnsServer: values['dns-server'] as string }),
    ...(values.ca === undefined ? {} : { ca: readPem('ca', values.ca as string) }),
    ...(values.cert === undefined ? {} : { tls: { cert: readPem('cert', values.cert as string), key: readPem('key', values.key as string) } }),
    trustProxy: values['trust-proxy'] === true,
    corsOrigins,
  };
}

/** The options a test or the benchmark starts a server with: the defaults, then its own. */
export function serveOptions(overrides: Partial<ServeOptions> = {}): ServeOptions {
  const parsed = parseServeArgs([]);
  if (parsed === 'help') throw new Error('unreachable');
  return { ...parsed, ...overrides };
}

function positive(flag: string, value: string, zeroAllowed = false): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < (zeroAllowed ? 0 : 1)) throw new ServeUsageError(`--${flag} takes a ${zeroAllowed ? 'non-negative' : 'positive'} whole number, not ${value}`);
  return parsed;
}

function origin(value: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ServeUsageError(`--cors-origin takes an origin such as https://app.example.nl, not ${value}`);
  }
  if (parsed.origin === 'null' || parsed.origin !== value.replace(/\/$/, '')) throw new ServeUsageError(`--cors-origin takes an origin such as https://app.example.nl (scheme, host, port), not ${value}`);
  return parsed.origin;
}

function readPem(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ServeUsageError(`cannot read --${flag} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
