import { oas3 } from '@stoplight/spectral-formats';
import forbiddenOAuthFlows from '../functions/forbiddenOAuthFlows.js';
import tokenNotInQuery from '../functions/tokenNotInQuery.js';
import oauthScopes from '../functions/oauthScopes.js';
import { ANY_OPERATION_PATHS, PARAMETERS_GIVEN, rule, type NlgovRule } from './rule.js';

const SCHEMES_GIVEN = '$.components.securitySchemes[*]';

export const oauthRules: Record<string, NlgovRule> = {
  'nlgov:oauth-flows': rule('nlgov:oauth-flows', {
    description: 'OAuth 2.0 schemes offer no implicit or password flow (the profile allows the authorization code flow).',
    severity: 'error',
    formats: [oas3],
    given: SCHEMES_GIVEN,
    then: {
      function: forbiddenOAuthFlows,
      functionOptions: { flows: ['implicit', 'password'], why: 'is not allowed by the NL GOV OAuth profile', advice: 'Use the authorization code flow (with PKCE for public clients)' },
    },
  }),
  'nlgov:oauth-client-credentials': rule('nlgov:oauth-client-credentials', {
    description: 'The client credentials flow is out of scope of this version of the OAuth profile.',
    severity: 'info',
    formats: [oas3],
    given: SCHEMES_GIVEN,
    then: {
      function: forbiddenOAuthFlows,
      functionOptions: { flows: ['clientCredentials'], why: 'is out of scope of the NL GOV OAuth profile', advice: 'Such clients must not request or be issued refresh tokens; document how they are registered' },
    },
  }),
  'nlgov:oauth-no-token-in-query': rule('nlgov:oauth-no-token-in-query', {
    description: 'No API key or access token is accepted in the query string.',
    severity: 'error',
    formats: [oas3],
    given: [SCHEMES_GIVEN, ...PARAMETERS_GIVEN],
    then: { function: tokenNotInQuery },
  }),
  'nlgov:oauth-scopes': rule('nlgov:oauth-scopes', {
    description: 'Every scope is described; every oauth2 security requirement names at least one scope that its scheme defines.',
    severity: 'error',
    formats: [oas3],
    given: [SCHEMES_GIVEN, '$.security[*]', `${ANY_OPERATION_PATHS}.security[*]`],
    then: { function: oauthScopes },
  }),
};
