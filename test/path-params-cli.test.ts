import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { privateBuild } from './support/private-build.js';

/**
 * On the command line, as users run it (issue 22 item 11): a path parameter declared by a `$ref`
 * that is not read is one finding, Spectral's invalid-ref, and no path-params "Operation must
 * define parameter" beside it, with nlgov-adr-lint and with `spectral lint --ruleset` alike.
 */
const run = promisify(execFile);

interface SpectralResult { code: string; path: string[]; message: string }

let build: string;

/** An OGC API items path whose {collectionId} is declared by `reference` only, and a /foto/{fotoId} that declares nothing. */
function description(reference: string): string {
  return [
    'openapi: 3.0.3',
    'info: { title: Monumenten, version: 1.0.0 }',
    'servers: [{ url: "https://api.example.nl/v1" }]',
    'paths:',
    '  /collections/{collectionId}/items:',
    '    get:',
    '      operationId: getItems',
    `      parameters: [{ $ref: '${reference}' }]`,
    "      responses: { '204': { description: Leeg } }",
    '  /foto/{fotoId}:',
    '    get:',
    '      operationId: getFoto',
    "      responses: { '204': { description: Leeg } }",
    '',
  ].join('\n');
}

beforeAll(async () => {
  build = await privateBuild('nlgov-adr-path-params-');
  writeFileSync(join(build, 'missing-file.yaml'), description('./parameters/collectionId.yaml'));
  // A schemas.opengis.net file the package does not ship: refused by the package's resolver, never fetched.
  writeFileSync(join(build, 'unshipped-ogc.yaml'), description('https://schemas.opengis.net/ogcapi/features/part1/1.0/openapi/parameters/collectionIdentifier.yaml'));
}, 180000);

afterAll(() => rmSync(build, { recursive: true, force: true }));

async function lint(command: string[], file: string): Promise<SpectralResult[]> {
  const outcome = await run(process.execPath, [...command, file, '-f', 'json', '--quiet'], { cwd: build, maxBuffer: 1 << 26, timeout: 60000 })
    .catch((error: { stdout: string }) => error);
  return JSON.parse(outcome.stdout) as SpectralResult[];
}

const pathParamsAndRefs = (results: SpectralResult[]) =>
  results.filter(({ code }) => code === 'path-params' || code === 'invalid-ref').map(({ code, path }) => `${code} ${path.join('.')}`).sort();

test.each([
  ['nlgov-adr-lint', 'missing-file.yaml', ['bin/nlgov-adr-lint.js']],
  ['nlgov-adr-lint', 'unshipped-ogc.yaml', ['bin/nlgov-adr-lint.js']],
  ['spectral lint --ruleset dist/ruleset.js', 'missing-file.yaml', ['node_modules/@stoplight/spectral-cli/dist/index.js', 'lint', '--ruleset', 'dist/ruleset.js']],
])('%s on %s: the unread $ref is one invalid-ref; the parameter no $ref declares is still missing', async (_name, file, command) => {
  expect(pathParamsAndRefs(await lint(command, file))).toEqual([
    'invalid-ref paths./collections/{collectionId}/items.get.parameters.0.$ref',
    'path-params paths./foto/{fotoId}.get',
  ]);
}, 90000);
