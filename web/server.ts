import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type HTTPMethods } from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { render, type Format } from '../live/formats.js';
import type { AddressPolicy } from '../live/address-policy.js';
import type { Report } from '../live/report.js';
import { chooseLang, word, type Lang } from './i18n.js';
import type { ServeOptions } from './options.js';
import { badgeSvg, failedPage, formPage, historyPage, messagePage, outcomeOf, progressPage, resultPage, verdictWords } from './pages.js';
import { CheckQueue, QueueFullError } from './queue.js';
import { progressOf, runCheck, type CheckInput } from './runner.js';
import { SqliteStore, type CheckRecord, type Store } from './store.js';
import { targetRefusal, webAddressPolicy } from './target-policy.js';
import { webTlsOptions } from './tls.js';

/** web/static and web/openapi.json: beside this file in the source, beside the bundle in dist/ (tsup.config.ts copies them). */
function asset(name: string): Buffer {
  const file = fileURLToPath(new URL(name, import.meta.url));
  if (!existsSync(file)) throw new Error(`the web checker's ${name} is missing from the installation (${file})`);
  return readFileSync(file);
}

const OPENAPI = asset('openapi.json');
const API_VERSION = (JSON.parse(OPENAPI.toString('utf8')) as { info: { version: string } }).info.version;
const STATIC: Record<string, { body: Buffer; type: string }> = {
  'app.js': { body: asset('static/app.js'), type: 'text/javascript; charset=utf-8' },
  'web.css': { body: asset('static/web.css'), type: 'text/css; charset=utf-8' },
};

const PROBLEM_BASE = 'https://github.com/nlgov-adr/nlgov-adr/blob/main/docs/web.md#problem-';
const ALL_METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE'];
const ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;
const BADGE_COLOURS = { conformant: 'green', failing: 'red', incomplete: 'grey' } as const;

/** A 128-bit random id in base64url: a permalink nobody can guess or count. */
function newId(): string {
  return randomBytes(16).toString('base64url');
}

/** The base URL as kept for its history: parsed and without trailing slashes, so that one API has one history. */
export function normalisedTarget(url: string): string {
  return new URL(url).href.replace(/\/+$/, '');
}

function badgeKey(target: string): string {
  return Buffer.from(target, 'utf8').toString('base64url');
}

class HttpProblem extends Error {
  constructor(readonly status: number, readonly title: string, readonly detail: string, readonly type: string, readonly headers: Record<string, string> = {}) {
    super(detail);
  }
}

function isApi(request: FastifyRequest): boolean {
  return request.url.startsWith('/api/');
}

function langOf(request: FastifyRequest): Lang {
  const query = (request.query as Record<string, unknown> | undefined)?.lang;
  const cookie = /(?:^|;\s*)lang=(en|nl)\b/.exec(request.headers.cookie ?? '')?.[1];
  return chooseLang(typeof query === 'string' ? query : undefined, cookie, request.headers['accept-language']);
}

/** The Content-Security-Policy: nothing but this origin's script and style, no frames, no plugins; inline styles only by hash. */
function contentSecurityPolicy(inlineStyles: string[] = []): string {
  const hashes = inlineStyles.map((style) => `'sha256-${createHash('sha256').update(style, 'utf8').digest('base64')}'`);
  return ["default-src 'none'", "script-src 'self'", `style-src 'self'${hashes.map((hash) => ` ${hash}`).join('')}`, "img-src 'self'", "connect-src 'self'", "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'"].join('; ');
}

export interface WebChecker {
  app: FastifyInstance;
  store: Store;
  queue: CheckQueue;
  /** http(s)://host:port of the listening server. */
  origin: string;
  close(): Promise<void>;
}

/** Starts the web checker: the pages, the JSON API, the queue and the store. */
export async function startWebChecker(options: ServeOptions, store: Store = new SqliteStore(options.dataDir)): Promise<WebChecker> {
  store.failUnfinished('the web checker stopped while this check waited or ran: check again');
  const queue = new CheckQueue(options.maxRunning, options.maxQueued, options.deadlineMs / 1000);
  const app = await buildApp(options, store, queue, webAddressPolicy(options));
  const purge = () => store.purgeDescriptions(new Date(Date.now() - options.retentionDays * 86_400_000));
  purge();
  const purging = setInterval(purge, 3_600_000);
  purging.unref();
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    app,
    store,
    queue,
    origin: `${options.tls === undefined ? 'http' : 'https'}://${host}:${port}`,
    async close() {
      clearInterval(purging);
      await app.close();
      await queue.idle();
      store.close();
    },
  };
}

async function buildApp(options: ServeOptions, store: Store, queue: CheckQueue, policy: AddressPolicy): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    // One proxy in front: the client is the address that proxy appended to X-Forwarded-For, the
    // last one. `true` would trust every hop and take the first, which the client itself writes.
    trustProxy: options.trustProxy ? (_address: string, hop: number) => hop === 0 : false,
    bodyLimit: options.maxUploadBytes + 65_536,
    // Fastify's default is no limit: a client sending a byte now and then would hold its connection for ever.
    requestTimeout: options.requestTimeoutMs,
    ...(options.tls === undefined ? {} : { https: webTlsOptions(options.tls.cert, options.tls.key) }),
  }) as unknown as FastifyInstance;
  const served = new Map<string, Set<HTTPMethods>>();
  const route = (method: HTTPMethods, url: string, handler: (request: FastifyRequest, reply: FastifyReply) => unknown, limited = false) => {
    served.set(url, new Set([...(served.get(url) ?? []), method, ...(method === 'GET' ? ['HEAD' as const] : [])]));
    app.route({ method, url, handler: handler as never, ...(limited ? { onRequest: submissionLimit() } : {}) });
  };

  await app.register(formbody, { bodyLimit: options.maxUploadBytes * 3 + 4096 });
  await app.register(multipart, { limits: { fileSize: options.maxUploadBytes, fieldSize: options.maxUploadBytes, files: 1, fields: 4, parts: 5 } });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new HttpProblem(429, 'Too many checks', `more than ${context.max} submissions a minute from this client. Try again in ${Math.ceil(context.ttl / 1000)} seconds`, 'rate-limit', { 'retry-after': String(Math.ceil(context.ttl / 1000)) }),
  });

  // One budget per client for every way to submit (form, API, batch, check again): a route's own limit would count each apart.
  let sharedLimit: ReturnType<FastifyInstance['rateLimit']> | undefined;
  const submissionLimit = () => (sharedLimit ??= app.rateLimit({ max: options.ratePerMinute, timeWindow: 60_000 }));

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', contentSecurityPolicy());
    if (options.tls !== undefined) reply.header('strict-transport-security', 'max-age=31536000');
    reply.header('api-version', API_VERSION);
    reply.header('vary', 'Origin, Accept-Language, Cookie');
    // The language switch (?lang=) is remembered for the pages that follow.
    const lang = (request.query as Record<string, unknown> | undefined)?.lang;
    if (!isApi(request) && (lang === 'en' || lang === 'nl')) reply.header('set-cookie', `lang=${lang}; Path=/; Max-Age=31536000; SameSite=Lax${options.tls === undefined ? '' : '; Secure'}`);
    const origin = request.headers.origin;
    if (request.url.endsWith('/openapi.json')) reply.header('access-control-allow-origin', '*');
    else if (isApi(request) && origin !== undefined && options.corsOrigins.includes(origin)) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-expose-headers', 'API-Version, Location, Retry-After');
    }
    return payload;
  });

  // Node's requestTimeout ends a request whose headers trickle in, not one whose body does: that is ended here, as Node would.
  app.addHook('onRequest', async (request, reply) => {
    if (request.raw.complete) return;
    const socket = request.raw.socket;
    const timer = setTimeout(() => {
      if (request.raw.complete || socket.destroyed) return;
      socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }, options.requestTimeoutMs);
    timer.unref();
    request.raw.once('end', () => clearTimeout(timer));
    request.raw.once('close', () => clearTimeout(timer));
    // Answered without reading the body (404, 405, 406): the connection is the next request's.
    reply.raw.once('finish', () => clearTimeout(timer));
  });

  // The JSON API serves JSON: an Accept that takes none of it is answered 406 (problem+json, which any client can read).
  app.addHook('onRequest', async (request, reply) => {
    if ((isApi(request) || request.url.startsWith('/openapi.json')) && !acceptsJson(request.headers.accept)) {
      await sendProblem(request, reply, new HttpProblem(406, 'Not acceptable', `this API answers application/json only, not ${request.headers.accept ?? ''}`, 'not-acceptable'));
    }
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const problem = error instanceof HttpProblem ? error : asProblem(error);
    for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value);
    return sendProblem(request, reply, problem);
  });
  app.setNotFoundHandler((request, reply) => sendProblem(request, reply, new HttpProblem(404, 'Not found', `nothing at ${request.url.split('?')[0]}`, 'not-found')));

  function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: HttpProblem): FastifyReply {
    reply.code(problem.status);
    if (isApi(request) || !/text\/html/.test(request.headers.accept ?? 'text/html')) {
      return reply.type('application/problem+json').send({ type: `${PROBLEM_BASE}${problem.type}`, title: problem.title, status: problem.status, detail: problem.detail });
    }
    const lang = langOf(request);
    const text = problem.status === 404 ? word(lang, 'notFound') : problem.status === 429 ? word(lang, 'tooMany') : problem.status === 413 ? word(lang, 'tooLarge', { bytes: options.maxUploadBytes }) : problem.detail;
    return reply.type('text/html; charset=utf-8').send(messagePage(lang, '/', 'errorTitle', text));
  }

  /** Refused, full, or queued: the one way a check enters, for the page, the API and a batch. */
  async function submit(input: CheckInput): Promise<CheckRecord> {
    if (input.kind === 'live') {
      const refusal = await targetRefusal(input.baseUrl, policy, options.dnsServer);
      if (refusal !== undefined) throw new HttpProblem(422, 'Target refused', refusal, 'target-refused');
    }
    if (!queue.hasRoom()) throw queueFull(queue.retryAfterSeconds());
    return enqueue(input);
  }

  /** Queues a check whose target was admitted and for which the queue has room. */
  function enqueue(input: CheckInput, batchId?: string): CheckRecord {
    const record: CheckRecord = {
      id: newId(),
      kind: input.kind,
      target: input.kind === 'live' ? normalisedTarget(input.baseUrl) : input.name,
      state: 'queued',
      createdAt: new Date().toISOString(),
      ...(input.kind === 'static' ? { description: input.text } : {}),
      ...(batchId === undefined ? {} : { batchId }),
      ...(input.kind === 'live' && input.token !== undefined ? { withToken: true } : {}),
    };
    store.insert(record);
    const checked: CheckInput = input.kind === 'live' ? { ...input, baseUrl: record.target } : input;
    queue.submit(record.id, () => runCheck(record.id, checked, store, options, policy));
    return record;
  }

  function queueFull(seconds: number): HttpProblem {
    return new HttpProblem(503, 'Queue full', `the queue is full (${options.maxQueued} checks waiting). Try again in ${seconds} seconds`, 'queue-full', { 'retry-after': String(seconds) });
  }

  function found(id: string): CheckRecord {
    const record = ID_PATTERN.test(id) ? store.get(id) : undefined;
    if (record === undefined) throw new HttpProblem(404, 'Not found', `there is no check ${id}`, 'not-found');
    return record;
  }

  function staticInput(name: string | undefined, text: string): CheckInput {
    if (Buffer.byteLength(text, 'utf8') > options.maxUploadBytes) throw new HttpProblem(413, 'Description too large', `the description is larger than ${options.maxUploadBytes} bytes, the limit of this web checker (--max-upload)`, 'too-large');
    const plain = (name ?? '').replace(/[^\w.-]+/g, '_').slice(0, 100);
    return { kind: 'static', name: plain === '' ? 'openapi' : plain, text };
  }

  // ---- pages ----
  route('GET', '/', (request, reply) => {
    return reply.type('text/html; charset=utf-8').send(formPage(langOf(request), options.retentionDays));
  });

  route('POST', '/checks', async (request, reply) => {
    const lang = langOf(request);
    const fields: Record<string, string> = {};
    let file: { name: string; text: string } | undefined;
    if (request.isMultipart()) {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          const buffer = await part.toBuffer();
          if (buffer.length > 0) file = { name: part.filename, text: buffer.toString('utf8') };
        } else {
          if (part.valueTruncated) throw new HttpProblem(413, 'Description too large', word(lang, 'tooLarge', { bytes: options.maxUploadBytes }), 'too-large');
          fields[part.fieldname] = String(part.value);
        }
      }
    } else Object.assign(fields, Object.fromEntries(Object.entries((request.body ?? {}) as Record<string, unknown>).map(([name, value]) => [name, String(value)])));
    const url = (fields.url ?? '').trim();
    const paste = fields.paste ?? '';
    let input: CheckInput;
    if (file !== undefined) input = staticInput(file.name, file.text);
    else if (paste.trim() !== '') input = staticInput('pasted', paste);
    else if (url !== '') input = { kind: 'live', baseUrl: url, ...(fields.token?.trim() ? { token: fields.token.trim() } : {}) };
    else return reply.code(400).type('text/html; charset=utf-8').send(formPage(lang, options.retentionDays, { title: 'errorTitle', text: word(lang, 'giveSomething') }));
    try {
      const record = await submit(input);
      return reply.code(303).header('location', `/checks/${record.id}`).send();
    } catch (error) {
      if (!(error instanceof HttpProblem)) throw error;
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      const text = error.type === 'queue-full' ? word(lang, 'queueFull', { seconds: error.headers['retry-after'] ?? '30' }) : error.type === 'too-large' ? word(lang, 'tooLarge', { bytes: options.maxUploadBytes }) : error.detail;
      return reply.code(error.status).type('text/html; charset=utf-8').send(formPage(lang, options.retentionDays, { title: error.type === 'target-refused' ? 'refusedTitle' : error.type === 'queue-full' ? 'queueFullTitle' : 'errorTitle', text }, { url, paste: input.kind === 'static' && file === undefined ? paste : '' }));
    }
  }, true);

  route('GET', '/checks/:id', (request, reply) => {
    const lang = langOf(request);
    const record = found((request.params as { id: string }).id);
    reply.type('text/html; charset=utf-8');
    if (record.state === 'failed') return reply.send(failedPage(lang, record));
    if (record.state !== 'done' || record.report === undefined) return reply.send(progressPage(lang, record, queue.position(record.id), progressOf.get(record.id)));
    const { html, inlineStyles } = resultPage(lang, record, JSON.parse(record.report) as Report);
    return reply.header('content-security-policy', contentSecurityPolicy(inlineStyles)).send(html);
  });

  const DOWNLOADS: Record<string, { format: Format; type: string }> = {
    'report.json': { format: 'json', type: 'application/json' },
    'report.sarif': { format: 'sarif', type: 'application/sarif+json' },
    'report.junit': { format: 'junit', type: 'application/xml' },
    'report.html': { format: 'html', type: 'text/html; charset=utf-8' },
  };
  route('GET', '/checks/:id/:file', (request, reply) => {
    const { id, file } = request.params as { id: string; file: string };
    const download = Object.hasOwn(DOWNLOADS, file) ? DOWNLOADS[file] : undefined;
    if (download === undefined) throw new HttpProblem(404, 'Not found', `there is no ${file}: report.json, report.sarif, report.junit or report.html`, 'not-found');
    const record = found(id);
    if (record.report === undefined) throw new HttpProblem(409, 'Not finished', `check ${id} has no report (${record.state})`, 'not-finished');
    const body = render(JSON.parse(record.report) as Report, download.format, { colour: false, verbose: false, secrets: [] });
    const extension = file.replace(/^report\./, '').replace('junit', 'junit.xml');
    reply.header('content-disposition', `attachment; filename="adr-check-${id}.${extension}"`);
    if (download.format === 'html') reply.header('content-security-policy', contentSecurityPolicy([...body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1] ?? '')));
    return reply.type(download.type).send(body);
  });

  route('POST', '/checks/:id/again', async (request, reply) => {
    const lang = langOf(request);
    const record = found((request.params as { id: string }).id);
    const token = String(((request.body ?? {}) as Record<string, unknown>).token ?? '').trim();
    if (record.kind === 'static' && record.description === undefined) return reply.code(410).type('text/html; charset=utf-8').send(messagePage(lang, `/checks/${record.id}`, 'errorTitle', word(lang, 'descriptionGone')));
    const input: CheckInput = record.kind === 'live' ? { kind: 'live', baseUrl: record.target, ...(token === '' ? {} : { token }) } : { kind: 'static', name: record.target, text: record.description ?? '' };
    const again = await submit(input);
    return reply.code(303).header('location', `/checks/${again.id}`).send();
  }, true);

  route('GET', '/history', (request, reply) => {
    const lang = langOf(request);
    const url = String((request.query as Record<string, unknown>).url ?? '');
    let target: string;
    try {
      target = normalisedTarget(url);
    } catch {
      throw new HttpProblem(400, 'Not a URL', `history takes ?url=<base URL>, not ${url}`, 'bad-request');
    }
    const records = store.history(target, 50);
    const origin = `${request.protocol}://${request.host}`;
    return reply.type('text/html; charset=utf-8').send(historyPage(lang, target, records, `/badge/${badgeKey(target)}.svg`, origin));
  });

  route('GET', '/badge/:key', (request, reply) => {
    const key = (request.params as { key: string }).key;
    const encoded = /^([A-Za-z0-9_-]{1,2800})\.svg$/.exec(key)?.[1];
    if (encoded === undefined) throw new HttpProblem(404, 'Not found', 'a badge is /badge/<base64url of the base URL>.svg', 'not-found');
    const latest = store.history(Buffer.from(encoded, 'base64url').toString('utf8'), 20).find((record) => record.state === 'done');
    const svg = latest === undefined ? badgeSvg('not checked', 'grey') : badgeSvg(verdictWords('en', latest.summary), BADGE_COLOURS[outcomeOf(latest.summary)]);
    return reply.type('image/svg+xml').send(svg);
  });

  route('GET', '/static/:file', (request, reply) => {
    const name = (request.params as { file: string }).file;
    const file = Object.hasOwn(STATIC, name) ? STATIC[name] : undefined;
    if (file === undefined) throw new HttpProblem(404, 'Not found', `no such file: ${request.url}`, 'not-found');
    return reply.type(file.type).send(file.body);
  });

  // ---- the JSON API (web/openapi.json) ----
  const openapi = (_request: FastifyRequest, reply: FastifyReply) => reply.type('application/json').send(OPENAPI);
  route('GET', '/openapi.json', openapi);
  route('GET', '/api/v1/openapi.json', openapi);

  route('GET', '/api/v1', (_request, reply) => reply.type('application/json').send({
    title: 'adr-check web checker',
    links: [
      { rel: 'service-desc', href: '/api/v1/openapi.json', type: 'application/vnd.oai.openapi+json;version=3.0' },
      { rel: 'checks', href: '/api/v1/checks' },
      { rel: 'batches', href: '/api/v1/batches' },
    ],
  }));

  route('POST', '/api/v1/checks', async (request, reply) => {
    const body = asObject(request.body);
    const input = checkInput(body, (name, text) => staticInput(name, text));
    const record = await submit(input);
    return reply.code(202).header('location', `/api/v1/checks/${record.id}`).type('application/json').send(stateOf(record));
  }, true);

  route('GET', '/api/v1/checks/:checkId', (request, reply) => reply.type('application/json').send(stateOf(found((request.params as { checkId: string }).checkId))));

  route('GET', '/api/v1/checks/:checkId/report', (request, reply) => {
    const record = found((request.params as { checkId: string }).checkId);
    if (record.report === undefined) throw new HttpProblem(409, 'Not finished', `check ${record.id} has no report (${record.state}${record.error === undefined ? '' : `: ${record.error}`})`, 'not-finished');
    return reply.type('application/json').send(record.report);
  });

  route('POST', '/api/v1/batches', async (request, reply) => {
    const urls = asObject(request.body).urls;
    if (!Array.isArray(urls) || urls.length === 0 || !urls.every((url) => typeof url === 'string')) throw new HttpProblem(400, 'Bad request', 'a batch is {"urls": ["https://api.example.nl/v1", ...]}', 'bad-request');
    if (urls.length > options.maxBatch) throw new HttpProblem(413, 'Batch too large', `a batch holds ${options.maxBatch} URLs at most (--max-batch), not ${urls.length}`, 'too-large');
    const refusals = await Promise.all((urls as string[]).map(async (url) => ({ url, reason: await targetRefusal(url, policy, options.dnsServer) })));
    const accepted = refusals.filter((entry) => entry.reason === undefined).map((entry) => entry.url);
    if (accepted.length === 0) throw new HttpProblem(422, 'Targets refused', refusals.map((entry) => `${entry.url}: ${entry.reason ?? ''}`).join('; '), 'target-refused');
    if (!queue.hasRoom(accepted.length)) throw queueFull(queue.retryAfterSeconds());
    const batchId = newId();
    // Each URL was admitted above and the queue has room for all: queued without a second look-up,
    // which could answer otherwise and leave the batch half queued. The run checks every address again.
    const checks = accepted.map((url) => enqueue({ kind: 'live', baseUrl: url }, batchId));
    store.insertBatch({ id: batchId, createdAt: new Date().toISOString(), checkIds: checks.map((check) => check.id) });
    return reply.code(202).header('location', `/api/v1/batches/${batchId}`).type('application/json').send({
      id: batchId,
      checks: checks.map(stateOf),
      refused: refusals.filter((entry) => entry.reason !== undefined).map((entry) => ({ url: entry.url, reason: entry.reason })),
    });
  }, true);

  route('GET', '/api/v1/batches/:batchId', (request, reply) => {
    const id = (request.params as { batchId: string }).batchId;
    const batch = ID_PATTERN.test(id) ? store.getBatch(id) : undefined;
    if (batch === undefined) throw new HttpProblem(404, 'Not found', `there is no batch ${id}`, 'not-found');
    const checks = batch.checkIds.map((checkId) => store.get(checkId)).filter((record): record is CheckRecord => record !== undefined);
    return reply.type('application/json').send({ id: batch.id, createdAt: batch.createdAt, checks: checks.map(stateOf) });
  });

  function stateOf(submitted: CheckRecord): object {
    const record = store.get(submitted.id) ?? submitted;
    const position = queue.position(record.id);
    const progress = progressOf.get(record.id);
    return {
      id: record.id,
      kind: record.kind,
      target: record.target,
      state: record.state,
      createdAt: record.createdAt,
      ...(record.finishedAt === undefined ? {} : { finishedAt: record.finishedAt }),
      ...(record.state === 'queued' && position !== undefined ? { position } : {}),
      ...(record.state === 'running' && progress !== undefined ? { progress: { done: progress.index, total: progress.total, check: progress.check } } : {}),
      ...(record.error === undefined ? {} : { error: record.error }),
      ...(record.summary === undefined ? {} : { conformant: outcomeOf(record.summary) === 'conformant', failingRules: record.summary.failing, ...(record.summary.incomplete === undefined ? {} : { incomplete: record.summary.incomplete }) }),
      links: { self: `/api/v1/checks/${record.id}`, page: `/checks/${record.id}`, ...(record.state === 'done' ? { report: `/api/v1/checks/${record.id}/report` } : {}) },
    };
  }

  // Every other method on a path that exists: 405 with Allow, before any body is read. OPTIONS
  // answers CORS preflights: for the allowed origins with what they may do, for any other without CORS headers (refused).
  for (const [url, methods] of served) {
    const allow = [...methods, 'OPTIONS'].join(', ');
    const others = ALL_METHODS.filter((method) => !methods.has(method));
    if (others.length > 0) {
      app.route({
        method: others,
        url,
        onRequest: async (request, reply) => {
          reply.header('allow', allow);
          await sendProblem(request, reply, new HttpProblem(405, 'Method not allowed', `${request.method} is not allowed here: ${allow}`, 'method-not-allowed'));
        },
        handler: async () => undefined,
      });
    }
    app.route({
      method: 'OPTIONS',
      url,
      handler: async (request, reply) => {
        const origin = request.headers.origin;
        if (isApi(request) && origin !== undefined && options.corsOrigins.includes(origin)) {
          reply.header('access-control-allow-methods', [...methods].join(', '));
          reply.header('access-control-allow-headers', 'Content-Type');
          reply.header('access-control-max-age', '600');
        }
        return reply.code(204).header('allow', allow).send();
      },
    });
  }
  return app;
}

/** Whether an Accept header takes JSON: absent, a wildcard, or a JSON type with a q above 0. */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type = '', ...parameters] = range.trim().toLowerCase().split(';').map((part) => part.trim());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) return false;
    return type === '*/*' || type === 'application/*' || type === 'application/json' || type.endsWith('+json');
  });
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {};
}

/** A check as the JSON API takes it: {"url", "token"?} for a live check, {"description", "name"?} for a static one. */
function checkInput(body: Record<string, unknown>, staticInput: (name: string | undefined, text: string) => CheckInput): CheckInput {
  if (typeof body.description === 'string' && body.description.trim() !== '') return staticInput(typeof body.name === 'string' ? body.name : undefined, body.description);
  if (typeof body.url === 'string' && body.url.trim() !== '') return { kind: 'live', baseUrl: body.url.trim(), ...(typeof body.token === 'string' && body.token.trim() !== '' ? { token: body.token.trim() } : {}) };
  throw new HttpProblem(400, 'Bad request', 'a check is {"url": "<base URL>"} (with an optional "token") or {"description": "<OpenAPI JSON or YAML>"} (with an optional "name")', 'bad-request');
}

function asProblem(error: Error & { statusCode?: number; code?: string }): HttpProblem {
  const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  if (status === 413 || error.code === 'FST_REQ_FILE_TOO_LARGE') return new HttpProblem(413, 'Too large', 'the request is larger than this web checker takes (--max-upload)', 'too-large');
  if (status >= 500) return new HttpProblem(500, 'Internal error', 'the web checker failed on this request', 'internal');
  return new HttpProblem(status, 'Bad request', error.message.split('\n')[0] ?? 'bad request', 'bad-request');
}
