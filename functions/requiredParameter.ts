import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import { asObject, entries, isObject, type JsonObject } from '../lib/json.js';
import { effectiveParameters, statusClass } from '../lib/openapi.js';
import { contentCarriesGeometry, isGeospatial } from '../lib/geo.js';
import { resolvedDocument } from '../lib/inventory.js';

export interface RequiredParameterOptions {
  name: string;
  in: 'query' | 'header';
  /** The operation must match every condition given. */
  methods?: string[];
  pathPattern?: string;
  whenParameter?: string;
  whenReturnsGeometry?: boolean;
  whenBodyHasGeometry?: boolean;
  onlyWhenGeospatial?: boolean;
  why: string;
}

/**
 * A parameter an operation must declare, at path or operation level, under conditions set per
 * rule (the geospatial module's crs, bbox, bbox-crs, filter-crs and Content-Crs).
 */
export default ruleFunction<RequiredParameterOptions>(
  {
    input: null,
    options: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'in', 'why'],
      properties: {
        name: { type: 'string' },
        in: { enum: ['query', 'header'] },
        methods: { type: 'array', items: { type: 'string' } },
        pathPattern: { type: 'string' },
        whenParameter: { type: 'string' },
        whenReturnsGeometry: { type: 'boolean' },
        whenBodyHasGeometry: { type: 'boolean' },
        onlyWhenGeospatial: { type: 'boolean' },
        why: { type: 'string' },
      },
    },
  },
  (operation, options, context) => {
    if (!isObject(operation)) return [];
    const document = resolvedDocument(context);
    if (options.onlyWhenGeospatial === true && !isGeospatial(document)) return [];
    const pathKey = String(context.path[1] ?? '');
    const method = String(context.path[2] ?? '');
    const pathItem = asObject(asObject(asObject(document).paths)[pathKey]);
    const parameters = effectiveParameters(pathItem, operation);
    if (!applies(options, pathKey, method, operation, parameters)) return [];
    if (parameters.some((parameter) => isParameter(parameter, options.name, options.in))) return [];
    return [missing(options, method, pathKey, operation)];
  },
);

function applies(options: RequiredParameterOptions, pathKey: string, method: string, operation: JsonObject, parameters: JsonObject[]): boolean {
  if (options.methods !== undefined && !options.methods.includes(method)) return false;
  if (options.pathPattern !== undefined && !new RegExp(options.pathPattern).test(pathKey)) return false;
  if (options.whenParameter !== undefined && !parameters.some((parameter) => isParameter(parameter, options.whenParameter as string, 'query'))) return false;
  if (options.whenReturnsGeometry === true && !returnsGeometry(operation)) return false;
  if (options.whenBodyHasGeometry === true && !contentCarriesGeometry(operation.requestBody)) return false;
  return true;
}

/** Header names compare case-insensitively; query parameter names are exact. */
function isParameter(parameter: JsonObject, name: string, location: string): boolean {
  const unresolvedName = nameOfUnresolvedReference(parameter);
  if (unresolvedName !== undefined) return unresolvedName.toLowerCase() === name.toLowerCase();
  if (parameter.in !== location || typeof parameter.name !== 'string') return false;
  return location === 'header' ? parameter.name.toLowerCase() === name.toLowerCase() : parameter.name === name;
}

/**
 * OGC API descriptions take their parameters from the OGC's shared files
 * (`.../ogcapi-features-1.yaml#/components/parameters/bbox`); where such a `$ref` cannot be
 * resolved (offline), the pointer's last segment is the parameter's name.
 */
function nameOfUnresolvedReference(parameter: JsonObject): string | undefined {
  if (typeof parameter.$ref !== 'string') return undefined;
  return parameter.$ref.split('/').pop()?.replace(/\.ya?ml$|\.json$/, '');
}

function returnsGeometry(operation: JsonObject): boolean {
  return entries(operation.responses).some(([status, response]) => statusClass(status) === 2 && contentCarriesGeometry(response));
}

function missing(options: RequiredParameterOptions, method: string, pathKey: string, operation: JsonObject): IFunctionResult {
  return {
    message: `${method.toUpperCase()} ${pathKey} does not declare the ${options.in} parameter ${options.name} (${options.why}). Add ${options.name} to the parameters of the operation or of its path item.`,
    path: operation.parameters === undefined ? [] : ['parameters'],
  };
}

