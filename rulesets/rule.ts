import type { RuleDefinition } from '@stoplight/spectral-core';
import { documentationUrl } from './documentation.js';
import { OPERATION_METHODS } from '../lib/openapi.js';

export type NlgovRule = RuleDefinition & { description: string; severity: 'error' | 'warn' | 'info' | 'hint' };

/** Every rule speaks through its function's message and links to its own page. */
export function rule(code: string, definition: Omit<NlgovRule, 'documentationUrl' | 'message'>): NlgovRule {
  return { message: '{{error}}', documentationUrl: documentationUrl(code), ...definition };
}

export const OPERATION_PATHS = `$.paths[*][${OPERATION_METHODS.join(',')}]`;
export const SERVERS_GIVEN = ['$.servers[*]', '$.paths[*].servers[*]', `${OPERATION_PATHS}.servers[*]`];
export const PARAMETERS_GIVEN = ['$.paths[*].parameters[*]', `${OPERATION_PATHS}.parameters[*]`];
export const PARAMETER_LISTS_GIVEN = ['$.paths[*].parameters', `${OPERATION_PATHS}.parameters`];
export const RESPONSES_GIVEN = `${OPERATION_PATHS}.responses`;
export const RESPONSE_HEADERS_GIVEN = `${OPERATION_PATHS}.responses[*].headers`;
