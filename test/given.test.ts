import { join } from 'node:path';
import { Ruleset, type RuleDefinition, type RulesetDefinition, type RulesetFunction } from '@stoplight/spectral-core';
import { oas2, oas3, oas3_0 } from '@stoplight/spectral-formats';
import { oas } from '@stoplight/spectral-rulesets';
import ruleset from '../ruleset.js';
import { createLinter, lintText } from '../lib/lint.js';
import { matchAll, parseGiven, withFixedGiven } from '../lib/given.js';
import { ANY_OPERATION_PATHS, OPERATION_PATHS, PARAMETERS_GIVEN, PARAMETER_LISTS_GIVEN, RESPONSES_GIVEN, RESPONSE_HEADERS_GIVEN, SERVERS_GIVEN } from '../rulesets/rule.js';
import { SERVER_VARIABLES_GIVEN, SERVER_VARIABLES_OAS3_GIVEN } from '../rulesets/oas.js';
import { FIXTURES, lint } from './harness.js';

/*
 * Rules give Spectral the fixed start of their JSONPath and match the rest in lib/given.ts, so
 * that Spectral does not walk the whole resolved document (docs/performance.md). These tests hold
 * that the nodes, the paths and their order are the ones Spectral's own matching gives.
 */

test('a given is split into the fixed start Spectral looks up and the steps matched here', () => {
  expect(parseGiven('$.paths[*][get,post].responses')).toEqual({
    expression: '$.paths[*][get,post].responses',
    start: ['paths'],
    steps: [{ kind: 'wildcard' }, { kind: 'members', names: new Set(['get', 'post']) }, { kind: 'members', names: new Set(['responses']) }],
  });
  expect(parseGiven("$.paths['/openapi.json']")).toMatchObject({ start: ['paths', '/openapi.json'], steps: [] });
  expect(parseGiven('$')).toMatchObject({ start: [], steps: [] });
});

test('JSONPath beyond the subset rules use is refused, not matched differently', () => {
  for (const expression of ['$..schema', '$.paths[?(@.get)]', '$.servers[0:2]', 'paths', '$.paths[*']) {
    expect(() => parseGiven(expression)).toThrow();
  }
});

test('matches come in document order, parent before child, members of an object only', () => {
  const document = { paths: { '/b': { get: { x: 1 }, parameters: [{ n: 1 }, 'p'] }, '/a': ['get'] } };
  const steps = ['$.paths[*].parameters[*]', '$.paths[*][get,parameters]'].map((expression) => parseGiven(expression).steps);
  expect(matchAll(document.paths, ['paths'], steps).map(({ expression, path }) => [expression, path.join('.')])).toEqual([
    [1, 'paths./b.get'],
    [1, 'paths./b.parameters'],
    [0, 'paths./b.parameters.0'],
    [0, 'paths./b.parameters.1'],
  ]);
});

/** A document with every shape a `given` can meet: extensions, primitives, arrays where objects belong, shared $refs. */
const TRICKY = {
  openapi: '3.0.3',
  info: { title: 'Tricky', version: '1.0.0' },
  servers: [{ url: 'https://api.example.nl/v1' }, 'not a server', 3],
  security: [{ oauth: ['read'] }, 'none'],
  paths: {
    '/a': {
      parameters: [{ name: 'p', in: 'query' }, { $ref: '#/components/parameters/Shared' }],
      servers: [{ url: 'https://a.example.nl/v1' }],
      get: {
        parameters: [{ name: 'q', in: 'query' }],
        security: [{ oauth: [] }],
        servers: [{ url: 'https://get.example.nl/v1' }],
        responses: {
          '200': { description: 'OK', headers: { 'X-A': { schema: { type: 'string' } } }, links: { self: { server: { url: 'https://l.example.nl' } } } },
          default: { $ref: '#/components/responses/Problem' },
        },
      },
      head: { responses: { '200': { description: 'OK' } } },
      'x-internal': { get: { responses: {} } },
    },
    '/b': { $ref: '#/components/x-pathItems/B' },
    '/c': 'not a path item',
    '/d': [{ get: {} }],
    'x-extension': { get: { parameters: [{ name: 'hidden', in: 'query' }] } },
  },
  components: {
    parameters: { Shared: { name: 'shared', in: 'header' } },
    responses: { Problem: { description: 'Problem', headers: { 'X-P': {} }, links: { next: { server: { url: 'https://n.example.nl' } } } } },
    links: { Self: { server: { url: 'https://s.example.nl' } }, Bare: {} },
    headers: { 'X-H': { schema: { type: 'string' } } },
    securitySchemes: { oauth: { type: 'oauth2', flows: {} }, odd: 'not a scheme' },
    'x-pathItems': { B: { post: { parameters: [{ name: 'b', in: 'query' }], responses: { '201': { description: 'Created' } } } } },
  },
};

const OUR_GIVENS: Array<[string, string[]]> = [
  ['operations', [OPERATION_PATHS]],
  ['any operation', [ANY_OPERATION_PATHS]],
  ['servers', SERVERS_GIVEN],
  ['parameters', PARAMETERS_GIVEN],
  ['parameter lists', PARAMETER_LISTS_GIVEN],
  ['responses', [RESPONSES_GIVEN]],
  ['response headers', [RESPONSE_HEADERS_GIVEN]],
  ['path items', ['$.paths[*]']],
  ['search responses', ['$.paths[*][get,post].responses']],
  ['security schemes and servers', [...SERVERS_GIVEN, '$.components.securitySchemes[*]']],
  ['security requirements', ['$.components.securitySchemes[*]', '$.security[*]', `${OPERATION_PATHS}.security[*]`]],
  ['signature headers', [RESPONSE_HEADERS_GIVEN, '$.components.headers', ...PARAMETER_LISTS_GIVEN]],
  ['server variables', [...SERVER_VARIABLES_GIVEN, ...SERVER_VARIABLES_OAS3_GIVEN]],
];

/**
 * The nodes a rule with this given is called for, in call order per fixed start (`$.paths`,
 * `$.components.links`): Spectral looks the starts up in an order of its own, and a rule's
 * findings under different starts have different paths, so only the order within one counts.
 */
async function calls(given: string[], definition: (fn: RulesetFunction) => RuleDefinition): Promise<Record<string, string[]>> {
  const starts = given.map((expression) => parseGiven(expression).start.join('.'));
  const seen: Record<string, string[]> = {};
  const record: RulesetFunction = (input, _options, context) => {
    const path = context.path.join('.');
    const start = starts.filter((prefix) => path === prefix || path.startsWith(`${prefix}.`)).sort((a, b) => b.length - a.length)[0] ?? '';
    (seen[start] ??= []).push(`${path} ${Array.isArray(input) ? 'array' : typeof input}`);
    return [];
  };
  const linter = createLinter({ rules: { probe: definition(record) } } as RulesetDefinition);
  await lintText(linter, JSON.stringify(TRICKY), join(FIXTURES, 'inline.json'));
  return seen;
}

test.each(OUR_GIVENS)('%s: the same nodes, paths and order as Spectral\'s own matching', async (_name, given) => {
  const spectralMatching = await calls(given, (fn) => ({ given, severity: 'error', then: { function: fn } }));
  const ours = await calls(given, (fn) => withFixedGiven({ given, severity: 'error', then: { function: fn } }));
  expect(Object.keys(spectralMatching).length).toBeGreaterThan(0);
  expect(ours).toEqual(spectralMatching);
});

test('no rule leaves Spectral a wildcard to walk the resolved document for', () => {
  const formats = new Set([oas3, oas3_0]);
  const rules = Object.values(new Ruleset(ruleset).rules).filter((rule) => rule.enabled && rule.matchesFormat(formats));
  const walking = rules.filter((rule) => rule.resolved && rule.getGivenForFormats(formats).some((given) => parseGiven(given).steps.length > 0));
  expect(walking.map((rule) => rule.name)).toEqual([]);
});

test('oas3-server-variables has the given spectral:oas expands its aliases to, per format', () => {
  const builtin = new Ruleset({ extends: [[oas as RulesetDefinition, 'off']], rules: { 'oas3-server-variables': 'error' } } as RulesetDefinition).rules['oas3-server-variables'];
  expect(builtin?.getGivenForFormats(new Set([oas3, oas3_0]))).toEqual([...SERVER_VARIABLES_GIVEN, ...SERVER_VARIABLES_OAS3_GIVEN]);
  expect(builtin?.getGivenForFormats(new Set([oas2]))).toEqual(SERVER_VARIABLES_GIVEN);
});

test('oas3-server-variables finds what spectral:oas\'s own rule finds, at every kind of server', async () => {
  const server = (url: string, variables?: object) => ({ url, ...(variables === undefined ? {} : { variables }) });
  const document = {
    ...TRICKY,
    servers: [server('https://{env}.example.nl/v1'), { variables: {} }],
    paths: {
      '/a': {
        servers: [server('https://a.example.nl/{version}', { version: { default: 'v1', enum: ['v2'] } })],
        get: {
          servers: [server('https://{host}/v1', { host: { default: 'x' }, unused: { default: 'y' } })],
          responses: { '200': { description: 'OK', links: { self: { server: server('https://{l}.example.nl') } } } },
        },
      },
    },
    components: {
      links: { Self: { server: server('https://{s}.example.nl') } },
      responses: { Problem: { description: 'Problem', links: { next: { server: 'https://not-an-object' } } } },
    },
  };
  const builtin = createLinter({ extends: [[oas as RulesetDefinition, 'off']], rules: { 'oas3-server-variables': 'error' } } as RulesetDefinition);
  const text = JSON.stringify(document, null, 2);
  const source = join(FIXTURES, 'inline.json');
  const byBuiltin = (await lintText(builtin, text, source)).filter((finding) => finding.code === 'oas3-server-variables');
  const byOurs = (await lint(document)).filter((finding) => finding.code === 'oas3-server-variables');
  expect(byBuiltin.length).toBeGreaterThan(5);
  expect(byOurs).toEqual(byBuiltin);
});
