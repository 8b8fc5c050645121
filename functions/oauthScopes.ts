import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import { asArray, asObject, entries, isObject, printedValue, type JsonObject } from '../lib/json.js';
import { resolvedDocument } from '../lib/inventory.js';

/**
 * nlgov:oauth-scopes. Given an oauth2 security scheme: every scope is described. Given a
 * security requirement: each oauth2 scheme it names asks for at least one scope, and only
 * scopes that scheme defines.
 */
export default ruleFunction<null>({ input: null, options: null }, (target, _options, context) => {
  if (!isObject(target)) return [];
  if (context.path[context.path.length - 2] === 'securitySchemes') return scopeDescriptions(target);
  const schemes = asObject(asObject(asObject(resolvedDocument(context)).components).securitySchemes);
  return requirementFindings(target, schemes);
});

function scopeDescriptions(scheme: JsonObject): IFunctionResult[] {
  if (scheme.type !== 'oauth2') return [];
  return entries(scheme.flows).flatMap(([flowName, flow]) =>
    entries(asObject(flow).scopes)
      .filter(([, description]) => typeof description !== 'string' || description.trim() === '')
      .map(([scope]) => ({ message: `OAuth scope has no description: ${scope}. Document what the scope grants.`, path: ['flows', flowName, 'scopes', scope] })),
  );
}

function requirementFindings(requirement: JsonObject, schemes: JsonObject): IFunctionResult[] {
  const results: IFunctionResult[] = [];
  for (const [schemeName, scopes] of Object.entries(requirement)) {
    const scheme = asObject(schemes[schemeName]);
    if (scheme.type !== 'oauth2') continue;
    const requested = asArray(scopes);
    const defined = new Set(entries(scheme.flows).flatMap(([, flow]) => Object.keys(asObject(asObject(flow).scopes))));
    if (requested.length === 0) {
      const advice = defined.size === 0 ? `Define the scopes in the flows of ${schemeName} and name the ones the resource needs` : `Name the scopes the resource needs, from ${listed(defined)}`;
      results.push({ message: `OAuth requirement for ${schemeName} names no scope: []. ${advice}.`, path: [schemeName] });
      continue;
    }
    requested.forEach((scope, index) => {
      if (typeof scope === 'string' && defined.has(scope)) return;
      const advice = defined.size === 0 ? `Define it in the flows of ${schemeName}` : `Define it in the flows of ${schemeName}, or use one of ${listed(defined)}`;
      results.push({ message: `OAuth requirement names a scope that ${schemeName} does not define: ${printedValue(scope)}. ${advice}.`, path: [schemeName, index] });
    });
  }
  return results;
}

/** A few scope names for the advice; a long list would drown the message. */
function listed(scopes: ReadonlySet<string>): string {
  const names = [...scopes];
  return names.length > 5 ? `${names.slice(0, 5).join(', ')}, ...` : names.join(', ');
}
