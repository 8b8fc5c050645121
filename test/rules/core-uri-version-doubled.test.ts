import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

/*
 * Issue 22 item 4: a description whose paths repeat the server URL's version (FastAPI's example:
 * server https://.../v1 and paths /v1/items, served at /v1/v1/items) is a /core/uri-version finding.
 */
const CODE = '/core/uri-version';

/** The conformant description with `${prefix}/monumenten` and `${prefix}/foto` (a copy) for its `/monumenten`. */
function withPathPrefix(prefix: string, serverUrl = 'https://api.example.nl/v1'): Record<string, any> {
  const doc = conformantDocument();
  doc.servers = [{ url: serverUrl }];
  const monumenten = doc.paths['/monumenten'];
  doc.paths = { '/openapi.json': doc.paths['/openapi.json'], [`${prefix}/monumenten`]: monumenten, [`${prefix}/foto`]: structuredClone(monumenten) };
  return doc;
}

test('paths that repeat the server URL\'s /v1 are one finding, at the first such path key, naming the URL a client calls and counting the others', async () => {
  expect(summary(await findingsOf(CODE, withPathPrefix('/v1')))).toEqual([
    ['error', 'paths./v1/monumenten', 'Path repeats the version of the server URL: /v1/monumenten under https://api.example.nl/v1 is https://api.example.nl/v1/v1/monumenten, and 1 other path does the same. Remove /v1 from the path keys or from the server URL.'],
  ]);
  const three = withPathPrefix('/v1');
  three.paths['/v1/kaart'] = structuredClone(three.paths['/v1/foto']);
  expect(summary(await findingsOf(CODE, three)).map(([, path, message]) => [path, message.split('. ')[0]])).toEqual([
    ['paths./v1/monumenten', 'Path repeats the version of the server URL: /v1/monumenten under https://api.example.nl/v1 is https://api.example.nl/v1/v1/monumenten, and 2 other paths do the same'],
  ]);
});

test('the finding is on the line of the path key', async () => {
  const yaml = [
    'openapi: 3.0.3',
    'info: {title: Items, version: 1.0.0}',
    'servers:',
    '  - url: https://api.example.nl/v1',
    'paths:',
    '  /v1/items:',
    '    get:',
    '      responses:',
    "        '204': {description: Leeg}",
  ].join('\n');
  const findings = await findingsOf(CODE, yaml, `${process.cwd()}/test/fixtures/inline.yaml`);
  expect(findings.map(({ path, line }) => [path, line])).toEqual([['paths./v1/items', 6]]);
});

test('a version in the path besides another in the server URL is named with both', async () => {
  expect(summary(await findingsOf(CODE, withPathPrefix('/api/v2')))).toEqual([
    ['error', 'paths./api/v2/monumenten', 'Path carries a version besides the server URL\'s: /api/v2/monumenten under https://api.example.nl/v1 is https://api.example.nl/v1/api/v2/monumenten, and 1 other path does the same. Keep one version: remove /v2 from the path keys, or /v1 from the server URL.'],
  ]);
});

test('servers of a path item and of an operation are the ones its paths are joined to, one finding per server; variables at their defaults', async () => {
  const doc = withPathPrefix('/v1', 'https://api.example.nl/monumenten');
  // The root server has no version (its own finding); the path item's and the operation's have.
  doc.paths['/v1/monumenten'].servers = [{ url: 'https://{host}/v1', variables: { host: { default: 'api.example.nl' } } }];
  doc.paths['/v1/foto'].get.servers = [{ url: '/v1' }];
  expect(summary(await findingsOf(CODE, doc)).filter(([, path]) => path.startsWith('paths./'))).toEqual([
    ['error', 'paths./v1/monumenten', 'Path repeats the version of the server URL: /v1/monumenten under https://{host}/v1 ({host} defaults to api.example.nl) is https://api.example.nl/v1/v1/monumenten. Remove /v1 from the path keys or from the server URL.'],
    ['error', 'paths./v1/foto', 'Path repeats the version of the server URL: /v1/foto under /v1 is /v1/v1/foto. Remove /v1 from the path keys or from the server URL.'],
  ]);
});

test('paths without a version under a versioned server, a {version} parameter, and a description without servers are no such finding', async () => {
  expect(await findingsOf(CODE, conformantDocument())).toEqual([]);
  expect(await findingsOf(CODE, withPathPrefix('/{versie}'))).toEqual([]);
  // No servers: the paths' prefix is the base path, judged on its own (a /v1 prefix matching info.version passes).
  const withoutServers = withPathPrefix('/v1');
  delete withoutServers.servers;
  expect(await findingsOf(CODE, withoutServers)).toEqual([]);
});
