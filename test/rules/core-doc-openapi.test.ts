import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Spectral } from '@stoplight/spectral-core';
import ruleset from '../../ruleset.js';
import { lintText } from '../../lib/lint.js';
import { createOfflineResolver } from '../../lib/offline-resolver.js';
import { describeFetchFailure } from '../../lib/fetch-failure.js';
import { conformantDocument } from '../fixtures/conformant.js';
import { FIXTURES, findingsOf, lint, summary } from '../harness.js';

const CODE = '/core/doc-openapi';

/** A host under `.invalid` is never found; offline, the lookup fails: the cause depends on the machine. */
const UNREACHABLE = '(host not found|DNS lookup failed)';
const REACH_IT = 'lint where its host can be reached, or keep a copy beside the description and refer to it by a relative path.';
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The message for a remote file the resolver could not reach, `detail` after its URL; `stay` is `Its $ref stays` or `Its 3 $refs stay`. */
const unreachable = (url: string, stay: string, detail = '') =>
  expect.stringMatching(new RegExp(`^Referenced file cannot be fetched \\(${UNREACHABLE}\\): ${escaped(url + detail)}\\. ${escaped(`${stay} unresolved: ${REACH_IT}`)}$`));

test.each([
  ['3.1.0', 'openapi', 'OpenAPI version is not 3.0.x: 3.1.0. Describe the API in OpenAPI 3.0.x.'],
  ['3.0', 'openapi', 'OpenAPI version is not 3.0.x: 3.0. Describe the API in OpenAPI 3.0.x.'],
])('openapi %s is an error naming the version', async (version, path, message) => {
  const doc = conformantDocument();
  doc.openapi = version;
  expect(summary(await findingsOf(CODE, doc))).toEqual([['error', path, message]]);
});

test('a Swagger 2.0 document is reported, though spectral formats would skip an oas3 rule', async () => {
  const swagger = { swagger: '2.0', info: { title: 'Oud', version: '1.0.0' }, paths: {} };
  expect(summary(await findingsOf(CODE, swagger))).toEqual([
    ['error', 'swagger', 'OpenAPI version is not 3.0.x: swagger 2.0. Describe the API in OpenAPI 3.0.x.'],
  ]);
});

test('a document without openapi and without paths gets both findings at the root', async () => {
  const doc = conformantDocument();
  delete doc.openapi;
  delete doc.paths;
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', '', 'OpenAPI version is missing. Add openapi: 3.0.3 at the top of the description.'],
    ['error', '', 'Paths are not defined. Add the paths of the API as an object.'],
  ]);
});

test('each unresolvable $ref is reported where it is, local and external', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.responses['404'] = { $ref: '#/components/responses/Bestaatniet' };
  doc.paths['/monumenten'].get.responses['500'] = { $ref: './ontbreekt.yaml#/Fout' };
  const findings = await findingsOf(CODE, doc);
  expect(summary(findings)).toEqual([
    ['error', 'paths./monumenten.get.responses.404.$ref', 'Reference does not resolve: #/components/responses/Bestaatniet. Point the $ref at an existing definition.'],
    ['error', 'paths./monumenten.get.responses.500.$ref', 'Reference does not resolve: ./ontbreekt.yaml#/Fout. Point the $ref at an existing definition.'],
  ]);
});

test('a circular $ref is valid; a broken $ref to an example object is reported, a $ref key inside an example value is not', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Monument.properties.onderdelen = { type: 'array', items: { $ref: '#/components/schemas/Monument' } };
  doc.paths['/monumenten'].get.responses['200'].content['application/json'].examples = {
    kapot: { $ref: '#/components/examples/Bestaatniet' },
    data: { value: [{ $ref: '#/nergens' }] },
  };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.responses.200.content.application/json.examples.kapot.$ref', 'Reference does not resolve: #/components/examples/Bestaatniet. Point the $ref at an existing definition.'],
  ]);
});

test('a broken $ref inside an external file is reported in that file', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.responses['200'] = { $ref: './external-broken.yaml#/Lijst' };
  const findings = await findingsOf(CODE, doc);
  expect(findings.map((finding) => [finding.path, finding.source?.endsWith('external-broken.yaml'), finding.message])).toEqual([
    ['Lijst.content.application/json', true, 'Reference does not resolve: #/Bestaatniet. Point the $ref at an existing definition.'],
  ]);
});

test('a $ref-like key inside an example is data, not a reference', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Monument.example = { $ref: '#/nergens', identificatie: 'M-1' };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('OpenAPI 3.0.x with paths and resolvable refs passes, and the spectral:oas rules run under their own names', async () => {
  expect(await findingsOf(CODE, conformantDocument())).toEqual([]);
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.operationId = 'getOpenapi';
  const codes = (await lint(doc)).map((finding) => finding.code);
  expect(codes).toContain('operation-operationId-unique');
});

test('a $ref into an existing file whose pointer does not exist is reported', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.responses['404'] = { $ref: './sub/schemas.yaml#/Ontbreekt' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.responses.404.$ref', 'Reference does not resolve: ./sub/schemas.yaml#/Ontbreekt. Point the $ref at an existing definition.'],
  ]);
});

test('properties named like keywords (example, default, enum, x-...) are walked for references', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Monument.properties.default = { $ref: '#/components/schemas/Weg1' };
  doc.components.schemas.Monument.properties['x-extra'] = { $ref: '#/components/schemas/Weg2' };
  expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual([
    'components.schemas.Monument.properties.default.$ref',
    'components.schemas.Monument.properties.x-extra.$ref',
  ]);
});

test('paths of the wrong type is named', async () => {
  const doc = conformantDocument();
  doc.paths = ['/monumenten'];
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths', 'Paths are not an object: an array. Give the paths of the API as an object, each path a key.'],
  ]);
});

test('a local pointer broken in an external file is reported there; the same pointer, circular and valid in the linted file, is not', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Monument.properties.onderdelen = { type: 'array', items: { $ref: '#/components/schemas/Monument' } };
  doc.components.schemas.Monument.properties.onderdeel = { $ref: './external-local-pointer.yaml#/Onderdeel' };
  const findings = await findingsOf(CODE, doc);
  expect(findings.map((finding) => [finding.path, finding.source?.endsWith('external-local-pointer.yaml'), finding.message])).toEqual([
    ['Onderdeel.properties', true, 'Reference does not resolve: #/components/schemas/Monument. Point the $ref at an existing definition.'],
  ]);
});

test('x- extensions of the Paths Object and of an operation\'s responses are data; an x- name in components.responses or properties is not', async () => {
  const doc = conformantDocument();
  doc.paths['x-sjabloon'] = { $ref: '#/nergens/pad' };
  doc.paths['/monumenten'].get.responses['x-extra'] = { $ref: '#/nergens/response' };
  doc.components.responses = { ...doc.components.responses, 'x-gedeeld': { $ref: '#/nergens/gedeeld' } };
  doc.components.schemas.Monument.properties['x-kenmerk'] = { $ref: '#/nergens/schema' };
  expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual([
    'components.responses.x-gedeeld.$ref',
    'components.schemas.Monument.properties.x-kenmerk.$ref',
  ]);
});

test('an unresolvable remote $ref in a shared schema, first reached from another schema through a $ref, is reported, naming the file and why it was not fetched', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Lijst = { allOf: [{ $ref: 'https://voorbeeld.invalid/gedeeld.yaml#/components/schemas/Lijst' }] };
  doc.components.schemas.Verwijzing = { type: 'object', properties: { lijst: { $ref: '#/components/schemas/Lijst' } } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'components.schemas.Lijst.allOf.0.$ref', unreachable('https://voorbeeld.invalid/gedeeld.yaml', 'Its $ref stays')],
  ]);
});

test('a remote $ref written inside an external file is reported there', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Monument.properties.onderdeel = { $ref: './external-chains.yaml#/Onderdeel' };
  const findings = await findingsOf(CODE, doc);
  expect(findings.map((finding) => [finding.path, finding.source?.endsWith('external-chains.yaml'), finding.message])).toEqual([
    ['Onderdeel.properties', true, unreachable('https://voorbeeld.invalid/bron.yaml', 'Its $ref stays')],
  ]);
});

test('a response that is only a $ref onward to a broken one is reported at the $ref that leads there, naming both', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.responses['500'] = { $ref: './external-chains.yaml#/OnlineFout' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.responses.500.$ref', unreachable('https://voorbeeld.invalid/gedeeld.yaml', 'Its $ref stays', ' (written in ./external-chains.yaml, reached through ./external-chains.yaml#/OnlineFout)')],
  ]);
});

test('a broken $ref reached through a chain of $refs in the linted file is reported where it is written, once', async () => {
  const doc = conformantDocument();
  doc.components.responses = { ...doc.components.responses, Fout: { $ref: '#/components/responses/Bestaatniet' } };
  doc.paths['/monumenten'].get.responses['500'] = { $ref: '#/components/responses/Fout' };
  doc.paths['/monumenten'].get.responses['503'] = { $ref: '#/components/responses/Fout' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'components.responses.Fout.$ref', 'Reference does not resolve: #/components/responses/Bestaatniet. Point the $ref at an existing definition.'],
  ]);
});

test('$refs that only point at each other are reported, each where it is written', async () => {
  const doc = conformantDocument();
  doc.components.responses = { ...doc.components.responses, A: { $ref: '#/components/responses/B' }, B: { $ref: '#/components/responses/A' } };
  doc.paths['/monumenten'].get.responses['500'] = { $ref: '#/components/responses/A' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'components.responses.A.$ref', 'Reference loops without reaching a definition: #/components/responses/B -> #/components/responses/A -> #/components/responses/B. Point one of these $refs at a definition.'],
    ['error', 'components.responses.B.$ref', 'Reference loops without reaching a definition: #/components/responses/A -> #/components/responses/B -> #/components/responses/A. Point one of these $refs at a definition.'],
  ]);
});

test('a $ref cycle across files through real schemas is valid; a percent-escaped file name is looked up as written, as the resolver does', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Monument.properties.onderdelen = { type: 'array', items: { $ref: './external-chains.yaml#/Onderdeel/properties/monument' } };
  expect(await findingsOf(CODE, doc)).toEqual([]);
  doc.components.schemas.Monument.properties.elders = { $ref: './external%2Dchains.yaml#/Onderdeel' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'components.schemas.Monument.properties.elders.$ref', 'Reference does not resolve: ./external%2Dchains.yaml#/Onderdeel. Point the $ref at an existing definition.'],
  ]);
});

test('x-webhooks at the root holds path items, as the schema rules read it: a broken $ref there is reported', async () => {
  const doc = conformantDocument() as Record<string, unknown>;
  doc['x-webhooks'] = { monumentGewijzigd: { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Bestaatniet' } } } }, responses: { '204': { description: 'Ontvangen' } } } } };
  doc['x-intern'] = { schema: { $ref: '#/nergens' } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'x-webhooks.monumentGewijzigd.post.requestBody.content.application/json.schema.$ref', 'Reference does not resolve: #/components/schemas/Bestaatniet. Point the $ref at an existing definition.'],
  ]);
});

test('a broken $ref in place of a whole map (schemas, paths, properties, x-webhooks) is reported, and no rule takes $ref for a name', async () => {
  const doc = conformantDocument();
  doc.components.schemas = { $ref: './ontbreekt.yaml' };
  doc.paths = { $ref: './paden-ontbreken.yaml' };
  doc['x-webhooks'] = { $ref: './webhooks-ontbreken.yaml' };
  doc.components.responses = { Lijst: { description: 'Lijst.', content: { 'application/json': { schema: { type: 'object', properties: { $ref: '#/components/schemas/Bestaatniet' } } } } } };
  const ours = (await lint(doc)).filter((finding) => finding.path.endsWith('$ref') && !['invalid-ref', 'oas3-schema'].includes(finding.code));
  expect(ours.map((finding) => [finding.code, finding.path, finding.message])).toEqual([
    [CODE, 'paths.$ref', 'Reference does not resolve: ./paden-ontbreken.yaml. Point the $ref at an existing definition.'],
    [CODE, 'components.responses.Lijst.content.application/json.schema.properties.$ref', 'Reference does not resolve: #/components/schemas/Bestaatniet. Point the $ref at an existing definition.'],
    [CODE, 'components.schemas.$ref', 'Reference does not resolve: ./ontbreekt.yaml. Point the $ref at an existing definition.'],
    [CODE, 'x-webhooks.$ref', 'Reference does not resolve: ./webhooks-ontbreken.yaml. Point the $ref at an existing definition.'],
  ]);
});

test('a file named with empty or dot segments (sub//boom.yaml, ./../sub/./boom.yaml) is the file the resolver read: its circular $refs stay valid beside a broken one', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Monument.properties.boom = { $ref: './sub//boom.yaml#/Boom' };
  doc.paths['/monumenten'].get.responses['404'] = { $ref: '#/components/responses/Bestaatniet' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.responses.404.$ref', 'Reference does not resolve: #/components/responses/Bestaatniet. Point the $ref at an existing definition.'],
  ]);
});

test('a broken whole-file alias used by two responses is reported at each $ref that leads there', async () => {
  const doc = conformantDocument();
  const content = { 'application/json': { schema: { $ref: './alias-broken.yaml' } } };
  Object.assign(doc.paths['/monumenten'].get.responses, { '206': { description: 'Deel', content }, '207': { description: 'Meer', content: structuredClone(content) } });
  const message = 'Reference does not resolve: ./bestaat-niet.yaml (written in ./alias-broken.yaml, reached through ./alias-broken.yaml). Point the $ref at an existing definition.';
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.responses.206.content.application/json.schema.$ref', message],
    ['error', 'paths./monumenten.get.responses.207.content.application/json.schema.$ref', message],
  ]);
});

test('a loop wholly inside another file is reported at the $ref that leads there, naming the file', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.responses['500'] = { $ref: './loop-elsewhere.yaml#/R1' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.responses.500.$ref', 'Reference loops without reaching a definition: #/R2 -> #/R1 -> #/R2 (written in ./loop-elsewhere.yaml, reached through ./loop-elsewhere.yaml#/R1). Point one of these $refs at a definition.'],
  ]);
});

test('the parameters and requestBody of a Link Object are values or runtime expressions: a $ref key there is data', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.responses['200'].links = {
    Volgende: { operationId: 'getMonumenten', parameters: { pagina: { $ref: '#/nergens/pagina' } }, requestBody: { $ref: '#/nergens/body' }, server: { $ref: '#/nergens/server' } },
  };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.responses.200.links.Volgende.server.$ref', 'Reference does not resolve: #/nergens/server. Point the $ref at an existing definition.'],
  ]);
});

describe('a remote file that cannot be fetched is reported once, with the reason, not at every $ref into it', () => {
  let server: Server;
  let base: string;
  let refused: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      response.statusCode = request.url?.startsWith('/kapot') ? 500 : 404;
      response.end('nee');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A port that was just free: nothing listens there, so the connection is refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    refused = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const CHECK_URL = 'check that the URL is right and the file is published there, or keep a copy beside the description and refer to it by a relative path.';

  test('404: one finding for three $refs with two pointers, at the first of them, where invalid-ref stands too', async () => {
    const file = `${base}/gedeeld-404.yaml`;
    const doc = conformantDocument();
    doc.paths['/monumenten'].get.responses['404'] = { $ref: `${file}#/components/responses/NietGevonden` };
    doc.paths['/monumenten'].get.responses['500'] = { $ref: `${file}#/components/responses/Fout` };
    doc.paths['/gebieden'] = { get: { operationId: 'gebieden', responses: { '500': { $ref: `${file}#/components/responses/Fout` } } } };
    const findings = await lint(doc);
    expect(summary(findings.filter(({ code }) => code === CODE))).toEqual([
      ['error', 'paths./monumenten.get.responses.404.$ref', `Referenced file cannot be fetched (404 Not Found): ${file}. Its 3 $refs stay unresolved: ${CHECK_URL}`],
    ]);
    expect(findings.filter(({ code }) => code === 'invalid-ref').map(({ path }) => path)).toEqual(['paths./monumenten.get.responses.404.$ref']);
  });

  test('an HTTP error and a refused connection are named as such, each file once', async () => {
    const doc = conformantDocument();
    doc.paths['/monumenten'].get.responses['404'] = { $ref: `${base}/kapot.yaml#/NietGevonden` };
    doc.paths['/monumenten'].get.responses['500'] = { $ref: `${refused}/gedeeld.yaml#/Fout` };
    doc.paths['/monumenten'].get.responses['503'] = { $ref: `${refused}/gedeeld.yaml#/Fout` };
    expect(summary(await findingsOf(CODE, doc))).toEqual([
      ['error', 'paths./monumenten.get.responses.404.$ref', `Referenced file cannot be fetched (HTTP 500 Internal Server Error): ${base}/kapot.yaml. Its $ref stays unresolved: ${CHECK_URL}`],
      ['error', 'paths./monumenten.get.responses.500.$ref', `Referenced file cannot be fetched (connection refused): ${refused}/gedeeld.yaml. Its 2 $refs stay unresolved: lint where its host can be reached, or keep a copy beside the description and refer to it by a relative path.`],
    ]);
  });

  test('the offline resolver of the corpus run refuses http(s) in words that read as the cause', async () => {
    const spectral = new Spectral({ resolver: createOfflineResolver() });
    spectral.setRuleset(ruleset);
    const doc = conformantDocument();
    doc.paths['/monumenten'].get.responses['404'] = { $ref: 'https://voorbeeld.invalid/offline.yaml#/NietGevonden' };
    const findings = (await lintText(spectral, JSON.stringify(doc), join(FIXTURES, 'inline.json'))).filter(({ code }) => code === CODE || code === 'invalid-ref');
    expect(findings.map(({ code, message }) => [code, message])).toEqual([
      [CODE, 'Referenced file cannot be fetched (offline run: http(s) $refs are not fetched, --network fetches them): https://voorbeeld.invalid/offline.yaml. Its $ref stays unresolved: lint where its host can be reached, or keep a copy beside the description and refer to it by a relative path.'],
      ['invalid-ref', 'offline run: http(s) $refs are not fetched, --network fetches them: https://voorbeeld.invalid/offline.yaml'],
    ]);
  });

  test('a pointer missing in a file that was fetched, and a missing local file, are still reported at each $ref', async () => {
    const doc = conformantDocument();
    doc.paths['/monumenten'].get.responses['404'] = { $ref: './ontbreekt-hier.yaml#/Fout' };
    doc.paths['/monumenten'].get.responses['500'] = { $ref: './ontbreekt-hier.yaml#/Fout' };
    expect(summary(await findingsOf(CODE, doc)).map(([, path, message]) => [path, message])).toEqual([
      ['paths./monumenten.get.responses.404.$ref', 'Reference does not resolve: ./ontbreekt-hier.yaml#/Fout. Point the $ref at an existing definition.'],
      ['paths./monumenten.get.responses.500.$ref', 'Reference does not resolve: ./ontbreekt-hier.yaml#/Fout. Point the $ref at an existing definition.'],
    ]);
  });
});

test.each([
  ['FetchError: request to https://x.nl/a.yaml failed, reason: getaddrinfo EAI_AGAIN x.nl', 'DNS lookup failed', 'network'],
  ['FetchError: request to https://x.nl/a.yaml failed, reason: connect ETIMEDOUT 10.0.0.1:443', 'timed out', 'network'],
  ['OpenError: Page not found: https://x.nl/a.yaml', '404 Not Found', 'http'],
  ['ReadError: 403 Forbidden', 'HTTP 403 Forbidden', 'http'],
  ['FetchError: request to https://x.nl/a.yaml failed, reason: certificate has expired', 'certificate has expired', 'other'],
  ['not read: https://x.nl/a.yaml is\n  outside   the origin', 'not read: is outside the origin', 'other'],
  ['not fetched: https://y.nl is not the origin of the description', 'https://y.nl is not the origin of the description', 'other'],
  ['ReadError: 502 Bad\u001b[31m Gateway', 'HTTP 502 Bad[31m Gateway', 'http'],
  [`ReadError: 500 ${'x'.repeat(400)}`, `HTTP 500 ${'x'.repeat(290)}…`, 'http'],
])('a resolver error is cleaned to one line without the URL: %s', (message, cause, kind) => {
  expect(describeFetchFailure(message, 'https://x.nl/a.yaml')).toEqual({ cause, kind });
});

test.each([
  ['package.json', { name: 'app', version: '1.0.0', scripts: { test: 'jest' }, dependencies: { express: '^5.0.0' } }],
  ['docker-compose.yaml', { services: { api: { image: 'api:1', ports: ['8080:8080'] } } }],
  ['action.yml', { name: 'Lint', description: 'x', inputs: { files: { required: true } }, runs: { using: 'composite', steps: [] } }],
  ['.pre-commit-config.yaml', { repos: [{ repo: 'local', hooks: [{ id: 'x', name: 'x', entry: 'x', language: 'system' }] }] }],
])('%s, a JSON/YAML file that is no API description: no finding of ours (Spectral says the format is not one it knows, as spectral:oas does)', async (_name, document) => {
  const { lint } = await import('../harness.js');
  expect((await lint(document)).map((finding) => finding.code)).toEqual(['unrecognized-format']);
});
