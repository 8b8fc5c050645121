import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/core/uri-version';

async function serverFindings(url: string, variables?: object) {
  const doc = conformantDocument();
  doc.servers = [{ url, ...(variables ? { variables } : {}) }];
  return summary(await findingsOf(CODE, doc));
}

test.each([
  ['https://api.example.nl/v1.2', 'Server URL carries more than the major version: https://api.example.nl/v1.2. Put only the major in the URL: https://api.example.nl/v1.'],
  ['https://api.example.nl/api/v1_0/', 'Server URL carries more than the major version: https://api.example.nl/api/v1_0/. Put only the major in the URL: https://api.example.nl/api/v1/.'],
  ['https://api.example.nl/v+', 'Server URL has no /v<major> segment: https://api.example.nl/v+. Put the major version in the path once, for example https://api.example.nl/v+/v1.'],
  ['https://v1.example.nl/api', 'Server URL has no /v<major> segment: https://v1.example.nl/api. Put the major version in the path once, for example https://v1.example.nl/api/v1.'],
  ['https://api.example.nl/v1/v1', 'Server URL has more than one /v<major> segment: https://api.example.nl/v1/v1. Keep one /v<major> segment and remove the others.'],
  ['https://api.example.nl/apiv1', 'Server URL has no /v<major> segment: https://api.example.nl/apiv1. Put the major version in the path once, for example https://api.example.nl/apiv1/v1.'],
  ['https://api.example.nl/v2', 'Server URL major version differs from info.version 1.0.0: https://api.example.nl/v2. Change the URL to https://api.example.nl/v1, or info.version to a 2.x.y version if the API is at major version 2.'],
])('%s is wrong', async (url, message) => {
  expect(await serverFindings(url)).toEqual([['error', 'servers.0.url', message]]);
});

test('variables are replaced by their defaults before the URL is judged; the message shows the URL as written, and the default to change', async () => {
  expect(await serverFindings('https://{host}/{version}', { host: { default: 'api.example.nl' }, version: { default: 'v3' } })).toEqual([
    ['error', 'servers.0.url', 'Server URL major version differs from info.version 1.0.0: https://{host}/{version} ({version} defaults to v3). Set the default of {version} to v1, or info.version to a 3.x.y version if the API is at major version 3.'],
  ]);
  expect(await serverFindings('https://{host}/v{major}', { host: { default: 'api.example.nl' }, major: { default: '2', enum: ['2'] } })).toEqual([
    ['error', 'servers.0.url', 'Server URL major version differs from info.version 1.0.0: https://{host}/v{major} ({major} defaults to 2). Set the default of {major} to 1, or info.version to a 2.x.y version if the API is at major version 2.'],
  ]);
  expect(await serverFindings('https://{host}/v{version}', { host: { default: 'api.example.nl' }, version: { default: '1.2' } })).toEqual([
    ['error', 'servers.0.url', 'Server URL carries more than the major version: https://{host}/v{version} ({version} defaults to 1.2). Set the default of {version} to 1.'],
  ]);
  expect(await serverFindings('https://{host}/api', { host: { default: 'api.example.nl' } })).toEqual([
    ['error', 'servers.0.url', 'Server URL has no /v<major> segment: https://{host}/api ({host} defaults to api.example.nl). Put the major version in the path once, for example https://{host}/api/v1.'],
  ]);
  expect(await serverFindings('https://{host}/{version}', { host: { default: 'api.example.nl' }, version: { default: 'v1' } })).toEqual([]);
});

test('path-level and operation-level servers are checked too', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].servers = [{ url: 'https://a.example.nl/monumenten' }];
  doc.paths['/monumenten'].get.servers = [{ url: 'https://b.example.nl/v1.0' }];
  expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual([
    'paths./monumenten.get.servers.0.url',
    'paths./monumenten.servers.0.url',
  ]);
});

test.each(['https://api.example.nl/v1', '/api/v1', 'v1', 'https://api.example.nl/monumenten/v1/', 'http://localhost:8080/v1'])('%s passes (relative URLs allowed)', async (url) => {
  expect(await serverFindings(url)).toEqual([]);
});

test('a zero-padded major is wrong', async () => {
  expect(await serverFindings('https://api.example.nl/v01')).toEqual([
    ['error', 'servers.0.url', 'Server URL has a major version with a leading zero: https://api.example.nl/v01. Write the major without leading zeros: https://api.example.nl/v1.'],
  ]);
});

test('the advice names the major of info.version, and the version is quoted as written, build metadata included', async () => {
  const doc = conformantDocument();
  doc.info.version = '3.1.0+build.7';
  doc.servers = [{ url: 'https://api.example.nl/monumenten' }, { url: 'https://api.example.nl/v2' }];
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'servers.0.url', 'Server URL has no /v<major> segment: https://api.example.nl/monumenten. Put the major version in the path once, for example https://api.example.nl/monumenten/v3.'],
    ['error', 'servers.1.url', 'Server URL major version differs from info.version 3.1.0+build.7: https://api.example.nl/v2. Change the URL to https://api.example.nl/v3, or info.version to a 2.x.y version if the API is at major version 2.'],
  ]);
});

test('the server of a Link Object is a server of the API; the servers of callbacks (the client\'s) are not judged', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.responses['200'].links = { Monument: { operationId: 'getMonument', server: { url: 'https://api.example.nl/monumenten' } } };
  doc.paths['/monumenten'].get.callbacks = { gewijzigd: { '{$request.query.url}': { servers: [{ url: 'https://client.example.nl' }], post: { responses: { '204': { description: 'Ontvangen' } } } } } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.responses.200.links.Monument.server.url', 'Server URL has no /v<major> segment: https://api.example.nl/monumenten. Put the major version in the path once, for example https://api.example.nl/monumenten/v1.'],
  ]);
});

test('a Link Object into another description points at another API: its server needs one /v<major>, but not this API\'s major', async () => {
  const doc = conformantDocument();
  const links = {
    Eigenaar: { operationRef: 'https://api.example.nl/personen/v3/openapi.json#/paths/~1personen~1{id}/get', server: { url: 'https://api.example.nl/personen/v3' } },
    Kadaster: { operationRef: 'https://api.example.nl/kadaster/openapi.json#/paths/~1percelen/get', server: { url: 'https://api.example.nl/kadaster' } },
    Zelf: { operationRef: '#/paths/~1monumenten/get', server: { url: 'https://api.example.nl/v3' } },
  };
  doc.paths['/monumenten'].get.responses['200'].links = links;
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.responses.200.links.Kadaster.server.url', 'Server URL has no /v<major> segment: https://api.example.nl/kadaster. Put the major version in the path once, for example https://api.example.nl/kadaster/v<major>.'],
    ['error', 'paths./monumenten.get.responses.200.links.Zelf.server.url', 'Server URL major version differs from info.version 1.0.0: https://api.example.nl/v3. Change the URL to https://api.example.nl/v1, or info.version to a 3.x.y version if the API is at major version 3.'],
  ]);
});

test('the advice for another API\'s server names its own major, not this API\'s', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.responses['200'].links = {
    Eigenaar: { operationRef: 'https://api.example.nl/personen/v3/openapi.json#/paths/~1personen/get', server: { url: 'https://api.example.nl/personen/v3.1' } },
  };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.responses.200.links.Eigenaar.server.url', 'Server URL carries more than the major version: https://api.example.nl/personen/v3.1. Put only the major in the URL: https://api.example.nl/personen/v3.'],
  ]);
});

describe('without servers, the paths\' common prefix is the base path', () => {
  function withoutServers(paths: string[], version = '1.0.0') {
    const doc = conformantDocument() as Record<string, unknown> & { paths: Record<string, unknown>; info: { version: string } };
    delete doc.servers;
    doc.info.version = version;
    const operation = (doc.paths['/monumenten'] as Record<string, unknown>).get;
    doc.paths = Object.fromEntries(paths.map((path) => [path, { get: operation }]));
    return doc;
  }

  test('/api/1.1.0/... carries more than the major', async () => {
    expect(summary(await findingsOf(CODE, withoutServers(['/api/1.1.0/monumenten', '/api/1.1.0/monumenten/{id}'], '1.1.0')))).toEqual([
      ['error', 'paths', "Paths carry more than the major version and there is no server URL: /api/1.1.0. Put only the major in a server URL, for example servers: [{url: '/api/v1'}], and start the paths after it."],
    ]);
  });

  test('/v2/... with info.version 1.0.0 differs', async () => {
    expect(summary(await findingsOf(CODE, withoutServers(['/v2/monumenten', '/v2/foto']))).map(([, path, message]) => [path, message])).toEqual([
      ['paths', "Paths' major version differs from info.version 1.0.0 and there is no server URL: /v2. Change the paths to /v1, or info.version to a 2.x.y version."],
    ]);
  });

  test.each([[['/v1/monumenten', '/v1/foto']], [['/monumenten', '/foto']]])('%j passes', async (paths) => {
    expect(await findingsOf(CODE, withoutServers(paths))).toEqual([]);
  });
});
