import type { RuleDefinition } from '@stoplight/spectral-core';
import { oas3 } from '@stoplight/spectral-formats';
import { oas } from '@stoplight/spectral-rulesets';
import mediaExamples from '../functions/mediaExamples.js';
import schemaExamples from '../functions/schemaExamples.js';
import pathParamsBesideUnreadReferences from '../functions/pathParamsBesideUnreadReferences.js';
import { withFixedGiven } from '../lib/given.js';
import type { NlgovRule } from './core.js';

/*
 * Faster equivalents of two spectral:oas rules, under the same names so that they replace the
 * built-in ones (see docs/performance.md). The built-in rules find examples with `$..` paths
 * through the whole resolved document and compile the schema anew for every example; these take
 * the document once, find the places OpenAPI 3 puts examples (lib/example-holders.ts), and
 * compile each schema once. `given: '$'` is deliberate: a list of narrow paths to every such
 * place (some 130 with webhooks and callbacks) cost Spectral's traversal seconds on GitHub's
 * description before any function ran.
 */

/** The findings are spectral's own, so they link to spectral's documentation as before. */
const SPECTRAL_OAS_RULES = 'https://meta.stoplight.io/docs/spectral/docs/reference/openapi-rules.md';

export const oasExampleRules: Record<string, NlgovRule> = {
  'oas3-valid-media-example': {
    description: 'Examples of media types, parameters and headers must be valid against their schema.',
    message: '{{error}}',
    documentationUrl: `${SPECTRAL_OAS_RULES}#oas3-valid-media-example`,
    severity: 'error',
    formats: [oas3],
    given: '$',
    then: { function: mediaExamples },
  },
  'oas3-valid-schema-example': {
    description: 'Examples and defaults of schemas must be valid against their schema.',
    message: '{{error}}',
    documentationUrl: `${SPECTRAL_OAS_RULES}#oas3-valid-schema-example`,
    severity: 'error',
    formats: [oas3],
    given: '$',
    then: { function: schemaExamples },
  },
};

/*
 * spectral:oas's oas3-server-variables, with its own function, options and message, and its
 * `given` spelled out: `$.servers[*]`, `#PathItem.servers[*]`, `#OperationObject.servers[*]` and,
 * for OpenAPI 3 only, `#LinkObject.server`, as spectral:oas's aliases expand them. Its wildcards
 * would make Spectral walk the whole resolved document (lib/given.ts), so they are matched by
 * withFixedGiven instead. test/given.test.ts checks this list against Spectral's own expansion.
 */
const SPECTRAL_OPERATIONS = '$.paths[*][get,put,post,delete,options,head,patch,trace]';
export const SERVER_VARIABLES_GIVEN = ['$.servers[*]', '$.paths[*].servers[*]', `${SPECTRAL_OPERATIONS}.servers[*]`];
export const SERVER_VARIABLES_OAS3_GIVEN = ['$.components.links[*].server', `${SPECTRAL_OPERATIONS}.responses[*].links[*].server`, '$.components.responses[*].links[*].server'];

const builtinRules = (oas as { rules: Record<string, RuleDefinition> }).rules;

/** Merged by Spectral onto the built-in rule of the same name, which keeps its formats and documentation link. */
export const oasServerRules: Record<string, RuleDefinition> = {
  'oas3-server-variables': withFixedGiven(
    { ...(builtinRules['oas3-server-variables'] as RuleDefinition), severity: 'error', given: SERVER_VARIABLES_GIVEN },
    [{ formats: [oas3], given: SERVER_VARIABLES_OAS3_GIVEN }],
  ),
};

/*
 * spectral:oas's path-params under its own name, with spectral's function wrapped: a parameter
 * `$ref` that did not resolve is reported once (invalid-ref, /core/doc-openapi), not again as
 * "Operation must define parameter" for each path parameter it would have defined (issue 22 item
 * 11; adr-check leaves the same follow-ons out, live/lint/follow-ons.ts). Its `given` is
 * spectral's own (`$.paths`, no wildcard); formats and documentation link are spectral's too.
 */
export const oasPathParamsRule: RuleDefinition = {
  ...(builtinRules['path-params'] as RuleDefinition),
  severity: 'error',
  then: { function: pathParamsBesideUnreadReferences },
};
