import { join } from 'node:path';
import { createHttpAndFileResolver } from '@stoplight/spectral-ref-resolver';
import ruleset from '../../ruleset.js';
import { createLinter, lintDiagnostics } from '../../lib/lint.js';
import { conformantDocument } from '../fixtures/conformant.js';
import { FIXTURES, findingsOf, summary } from '../harness.js';

/*
 * Issue 22 item 14: a wrongly named property whose value is a `$ref` is reported at its own key
 * (it was placed at the `properties` map above it), and names in the files a description `$ref`s
 * are still reported in those files.
 */
const CODE = 'nlgov:property-names-camel-case';
/**
 * A resolver of its own per lint: Spectral keeps the files a run has read in its resolver's cache,
 * and a later run that reads the other file from that cache cannot place findings in it.
 */
async function lintYaml() {
  return (await lintDiagnostics(createLinter(ruleset, createHttpAndFileResolver()), YAML, join(FIXTURES, 'inline.yaml'))).filter((diagnostic) => diagnostic.code === CODE);
}

const YAML = [
  'openapi: 3.0.3',
  'info: {title: Monumenten, version: 1.0.0}',
  'paths: {}',
  'components:',
  '  schemas:',
  '    Monument:',
  '      type: object',
  '      properties:',
  '        naam:',
  '          type: string',
  '        BadName:',
  "          $ref: '#/components/schemas/Adres'",
  '        Persoon:',
  "          $ref: './external-property-names.yaml#/Persoon'",
  '    Adres:',
  '      type: object',
  '      properties:',
  '        straat: {type: string}',
  '',
].join('\n');

test('a name whose value is a $ref: path and range at its key, in the linted file, whether the $ref leads into it or to another file', async () => {
  const diagnostics = await lintYaml();
  const inLintedFile = diagnostics.filter((diagnostic) => diagnostic.source === join(FIXTURES, 'inline.yaml'));
  // Lines are counted from 0: `BadName:` is line 10, its $ref line 11; `Persoon:` 12, its $ref 13.
  expect(inLintedFile.map(({ path, range, message }) => [path.join('.'), range.start.line, range.end.line, message])).toEqual([
    ['components.schemas.Monument.properties.BadName', 10, 11, 'Property name is not lowerCamelCase: BadName. Rename it in lowerCamelCase, for example badName.'],
    ['components.schemas.Monument.properties.Persoon', 12, 13, 'Property name is not lowerCamelCase: Persoon. Rename it in lowerCamelCase, for example persoon.'],
  ]);
});

test('the names written in the other file are still reported there, at the property', async () => {
  const diagnostics = await lintYaml();
  expect(diagnostics.filter((diagnostic) => diagnostic.source === join(FIXTURES, 'external-property-names.yaml')).map(({ path, range }) => [path.join('.'), range.start.line])).toEqual([
    ['Persoon.properties', 4],
    ['Persoon.properties.geboorte_datum', 5],
  ]);
});

test('in an inline schema of a response, and in a schema reached first through a $ref, at the key as written', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Adres = { type: 'object', properties: { Woonplaats: { $ref: '#/components/schemas/Woonplaats' } } };
  doc.components.schemas.Woonplaats = { type: 'string' };
  doc.paths['/monumenten'].get.responses['200'].content['application/json'].schema = {
    type: 'object',
    properties: { Adres: { $ref: '#/components/schemas/Adres' }, monumenten: { type: 'array', items: { $ref: '#/components/schemas/Monument' } } },
  };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'paths./monumenten.get.responses.200.content.application/json.schema.properties.Adres', 'Property name is not lowerCamelCase: Adres. Rename it in lowerCamelCase, for example adres.'],
    ['warn', 'components.schemas.Adres.properties.Woonplaats', 'Property name is not lowerCamelCase: Woonplaats. Rename it in lowerCamelCase, for example woonplaats.'],
  ]);
});

test('lowerCamelCase names whose values are $refs pass', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Adres = { type: 'object', properties: { straat: { type: 'string' } } };
  doc.components.schemas.Monument.properties.adres = { $ref: '#/components/schemas/Adres' };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});
