import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Router from '@koa/router';
import express from 'express';
import Koa from 'koa';
import { startLabNginx } from './nginx.js';
import { issueLabPki } from './tls.js';

/**
 * The same small API written as a team writes it with Express 5 and with Koa (and Koa's own
 * router), each framework left at its defaults: the team sets API-Version on every response,
 * serves its description with `Access-Control-Allow-Origin: *` and answers an unknown building
 * with problem+json; everything else (routing, HEAD, OPTIONS, unknown paths and methods, trailing
 * slashes, headers) is what the framework does by itself.
 */
export type Framework = 'express' | 'koa';

const VERSION = '1.0.0';
const GEBOUWEN = [
  { id: 1, naam: 'Onze Lieve Vrouwetoren', bouwjaar: 1444 },
  { id: 2, naam: 'Koppelpoort', bouwjaar: 1425 },
];
const API_VERSION_HEADER = { 'API-Version': { description: 'De volledige versie van de API.', schema: { type: 'string', example: VERSION } } };

/** The description the apps publish: right by SPEC, so that the verdicts judge the framework, not the description. */
export const APP_DESCRIPTION = {
  openapi: '3.0.3',
  info: {
    title: 'Gebouwen',
    description: 'Gebouwen met naam en bouwjaar.',
    version: VERSION,
    contact: { name: 'Team Gebouwen', url: 'https://gebouwen.example.nl', email: 'team-gebouwen@example.nl' },
  },
  servers: [{ url: '/v1' }],
  paths: {
    '/openapi.json': { get: { operationId: 'getOpenapi', description: 'Deze beschrijving.', responses: { 200: { description: 'De beschrijving.', headers: { ...API_VERSION_HEADER, 'Access-Control-Allow-Origin': { schema: { type: 'string', example: '*' } } }, content: { 'application/json': { schema: { type: 'object' } } } } } } },
    '/gebouwen': { get: { operationId: 'getGebouwen', description: 'Alle gebouwen.', responses: { 200: { $ref: '#/components/responses/Gebouwen' } } } },
    '/gebouwen/{id}': {
      get: {
        operationId: 'getGebouw',
        description: 'Eén gebouw.',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' }, example: 1 }],
        responses: { 200: { $ref: '#/components/responses/Gebouw' }, 404: { $ref: '#/components/responses/NietGevonden' } },
      },
    },
  },
  components: {
    schemas: {
      Gebouw: { type: 'object', properties: { id: { type: 'integer' }, naam: { type: 'string' }, bouwjaar: { type: 'integer' } } },
      Probleem: { type: 'object', properties: { title: { type: 'string' }, status: { type: 'integer' } } },
    },
    responses: {
      Gebouwen: { description: 'De gebouwen.', headers: API_VERSION_HEADER, content: { 'application/json': { schema: { type: 'object', properties: { gebouwen: { type: 'array', items: { $ref: '#/components/schemas/Gebouw' } } } } } } },
      Gebouw: { description: 'Het gebouw.', headers: API_VERSION_HEADER, content: { 'application/json': { schema: { $ref: '#/components/schemas/Gebouw' } } } },
      NietGevonden: { description: 'Geen gebouw met dit id.', headers: API_VERSION_HEADER, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Probleem' } } } },
    },
  },
};

const notFound = (id: string) => JSON.stringify({ title: 'Gebouw niet gevonden', status: 404, detail: `Geen gebouw met id ${id}.` });
const find = (id: string) => GEBOUWEN.find((gebouw) => String(gebouw.id) === id);

function expressApp(): http.RequestListener {
  const app = express();
  app.use((_request, response, next) => {
    response.set('API-Version', VERSION);
    next();
  });
  app.get('/v1/openapi.json', (_request, response) => {
    response.set('Access-Control-Allow-Origin', '*').json(APP_DESCRIPTION);
  });
  app.get('/v1/gebouwen', (_request, response) => {
    response.json({ gebouwen: GEBOUWEN });
  });
  app.get('/v1/gebouwen/:id', (request, response) => {
    const gebouw = find(request.params.id);
    if (gebouw === undefined) return void response.status(404).type('application/problem+json').send(notFound(request.params.id));
    response.json(gebouw);
  });
  return app;
}

function koaApp(): http.RequestListener {
  const app = new Koa();
  const router = new Router({ prefix: '/v1' });
  app.use(async (context, next) => {
    context.set('API-Version', VERSION);
    await next();
  });
  router.get('/openapi.json', (context) => {
    context.set('Access-Control-Allow-Origin', '*');
    context.body = APP_DESCRIPTION;
  });
  router.get('/gebouwen', (context) => {
    context.body = { gebouwen: GEBOUWEN };
  });
  router.get('/gebouwen/:id', (context) => {
    const id = context.params.id ?? '';
    const gebouw = find(id);
    if (gebouw !== undefined) return void (context.body = gebouw);
    context.status = 404;
    context.type = 'application/problem+json';
    context.body = notFound(id);
  });
  app.use(router.routes()).use(router.allowedMethods());
  return app.callback();
}

export interface LabApp {
  /** `http://127.0.0.1:PORT/v1` (direct) or `https://127.0.0.1:PORT/v1` (behind nginx). */
  baseUrl: string;
  /** The CA to give adr-check (behind nginx) and the plain-HTTP port that redirects. */
  caCertificate?: string;
  plainPort?: number;
  /** What Node's HTTP parser refused of the requests the app got (its 'clientError'): a malformed request. */
  clientErrors: string[];
  close(): Promise<void>;
}

async function listen(framework: Framework, clientErrors: string[]): Promise<http.Server> {
  const server = http.createServer(framework === 'express' ? expressApp() : koaApp());
  // Node's default answer stays (400 and close); the test also learns what was malformed.
  server.on('clientError', (error: Error & { code?: string }, socket) => {
    clientErrors.push(`${error.code ?? 'error'}: ${error.message}`);
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

const closeServer = (server: http.Server) => new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
});

/** The app on plain HTTP, as the framework serves it: `app.listen()`. */
export async function startAppDirect(framework: Framework): Promise<LabApp> {
  const clientErrors: string[] = [];
  const server = await listen(framework, clientErrors);
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, clientErrors, close: () => closeServer(server) };
}

/** The app behind Debian's nginx with TLS and a default reverse proxy: `location / { proxy_pass ...; }`. */
export async function startAppBehindNginx(framework: Framework): Promise<LabApp> {
  const clientErrors: string[] = [];
  const server = await listen(framework, clientErrors);
  const prefix = mkdtempSync(join(tmpdir(), `adr-lab-${framework}-`));
  try {
    const pki = issueLabPki(prefix);
    const nginx = await startLabNginx(prefix, pki, [`location / { proxy_pass http://127.0.0.1:${(server.address() as AddressInfo).port}; }`]);
    return {
      baseUrl: `${nginx.origin}/v1`,
      caCertificate: pki.caCertificate,
      plainPort: nginx.plainPort,
      clientErrors,
      close: async () => {
        await nginx.close();
        await closeServer(server);
        rmSync(prefix, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await closeServer(server);
    rmSync(prefix, { recursive: true, force: true });
    throw error;
  }
}
