import type { RuleDefinition } from '@stoplight/spectral-core';
import { documentationUrl } from './documentation.js';
import { FORBIDDEN_METHODS, OPERATION_METHODS } from '../lib/openapi.js';
import { withFixedGiven } from '../lib/given.js';

export type NlgovRule = RuleDefinition & { description: string; severity: 'error' | 'warn' | 'info' | 'hint' };

/**
 * Every rule speaks through its function's message and links to its own page. Its `given` is
 * written as the narrow JSONPath of the nodes it judges; Spectral gets the fixed start of that
 * path and the rest is matched in lib/given.ts, because a wildcard in any `given` makes Spectral
 * walk the whole resolved document (docs/performance.md).
 */
export function rule(code: string, definition: Omit<NlgovRule, 'documentationUrl' | 'message'>): NlgovRule {
  return withFixedGiven({ message: '{{error}}', documentationUrl: documentationUrl(code), ...definition });
}

/** The operations the standard allows: where rules about operation design look. */
export const OPERATION_PATHS = `$.paths[*][${OPERATION_METHODS.join(',')}]`;
/**
 * Every operation, HEAD, OPTIONS and TRACE included: /core/http-methods reports the method, and
 * the rules about servers, parameters and responses still judge what such an operation declares.
 */
export const ANY_OPERATION_PATHS = `$.paths[*][${[...OPERATION_METHODS, ...FORBIDDEN_METHODS].join(',')}]`;
export const SERVERS_GIVEN = ['$.servers[*]', '$.paths[*].servers[*]', `${ANY_OPERATION_PATHS}.servers[*]`];
/** The server a Link Object sends the client to: a server of the API, like the others. */
export const LINK_SERVERS_GIVEN = ['$.components.links[*].server', '$.components.responses[*].links[*].server', `${ANY_OPERATION_PATHS}.responses[*].links[*].server`];
const ANY_METHOD = `[${[...OPERATION_METHODS, ...FORBIDDEN_METHODS].join(',')}]`;
/** The servers of callbacks: where the API calls the client, so not the API's own URLs. */
export const CALLBACK_SERVERS_GIVEN = [
  `${ANY_OPERATION_PATHS}.callbacks[*][*].servers[*]`,
  `${ANY_OPERATION_PATHS}.callbacks[*][*]${ANY_METHOD}.servers[*]`,
  '$.components.callbacks[*][*].servers[*]',
  `$.components.callbacks[*][*]${ANY_METHOD}.servers[*]`,
];
/** The servers of webhooks (3.1's `webhooks`, and `x-webhooks` where 3.0 descriptions write them): the client's too. */
export const WEBHOOK_SERVERS_GIVEN = [
  '$.webhooks[*].servers[*]',
  `$.webhooks[*]${ANY_METHOD}.servers[*]`,
  "$['x-webhooks'][*].servers[*]",
  `$['x-webhooks'][*]${ANY_METHOD}.servers[*]`,
];
export const PARAMETERS_GIVEN = ['$.paths[*].parameters[*]', `${ANY_OPERATION_PATHS}.parameters[*]`];
export const PARAMETER_LISTS_GIVEN = ['$.paths[*].parameters', `${ANY_OPERATION_PATHS}.parameters`];
export const RESPONSES_GIVEN = `${ANY_OPERATION_PATHS}.responses`;
export const RESPONSE_HEADERS_GIVEN = `${ANY_OPERATION_PATHS}.responses[*].headers`;
