import type { IFunctionResult, RulesetFunctionContext } from '@stoplight/spectral-core';
import { resolvedDocument } from '../lib/inventory.js';
import type { JsonPath } from '@stoplight/types';
import { ruleFunction } from '../lib/rule-function.js';
import { asArray, asObject, isObject, printedValue, valueAt as valueAtPath, type JsonObject } from '../lib/json.js';
import { contentSchemaOf, findHeader } from '../lib/openapi.js';
import { declaredValues } from '../lib/declared-values.js';

export interface SignatureHeaderOptions {
  header: string;
}

const DETACHED_JWS = /^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/;
const FORMAT = 'jws-compact-detached';

/**
 * /signing/payload and /signing/message: the signature header is a string of format
 * jws-compact-detached whose examples are detached compact JWSs, and the signed exchange declares
 * Digest, which both signatures sign (the payload signature's sigD.pars is `digest`). Given a
 * headers map (of a response or components.headers) or a parameter list (header parameters of a
 * request).
 */
export default ruleFunction<SignatureHeaderOptions>(
  {
    input: null,
    options: {
      type: 'object',
      additionalProperties: false,
      required: ['header'],
      properties: { header: { type: 'string' } },
    },
  },
  (target, options, context) => {
    const inComponents = context.path[0] === 'components';
    if (Array.isArray(target)) return parameterFindings(target, pathLevelParameters(context), options);
    const found = findHeader(target, options.header);
    if (found === undefined) return [];
    const [name, header] = found;
    const digestMissing = !inComponents && findHeader(target, 'Digest') === undefined;
    return [...declarationFindings(name, header, [name]), ...(digestMissing ? [missingDigest(name)] : [])];
  },
);

/** For an operation's parameters: those of its path item, which apply to it too. */
function pathLevelParameters(context: RulesetFunctionContext): unknown[] {
  if (context.path.length < 4 || context.path[0] !== 'paths') return [];
  return asArray(asObject(asObject(asObject(resolvedDocument(context)).paths)[String(context.path[1])]).parameters);
}

function parameterFindings(parameters: unknown[], inherited: unknown[], options: SignatureHeaderOptions): IFunctionResult[] {
  const headerParameters = parameters
    .map((parameter, index): [JsonObject, number] => [asObject(parameter), index])
    .filter(([parameter]) => parameter.in === 'header' && typeof parameter.name === 'string');
  const signature = headerParameters.find(([parameter]) => String(parameter.name).toLowerCase() === options.header.toLowerCase());
  if (signature === undefined) return [];
  const [parameter, index] = signature;
  const hasDigest = [...parameters, ...inherited].some((candidate) => isObject(candidate) && candidate.in === 'header' && String(candidate.name).toLowerCase() === 'digest');
  const findings = declarationFindings(String(parameter.name), parameter, [index]);
  return hasDigest ? findings : [...findings, missingDigest(String(parameter.name))];
}

function declarationFindings(name: string, declaration: JsonObject, base: JsonPath): IFunctionResult[] {
  const results: IFunctionResult[] = [];
  const content = contentSchemaOf(declaration);
  const schemaPath = declaration.schema === undefined && content !== undefined ? ['content', content[0], 'schema'] : ['schema'];
  const schema = asObject(declaration.schema ?? content?.[1]);
  if (schema.type !== 'string' || schema.format !== FORMAT) {
    const advice = `Declare schema type string with format ${FORMAT}`;
    const path = [...base, ...(isObject(valueAtPath(declaration, schemaPath)) ? schemaPath : [])];
    // What the schema says instead: its type and format, each only where it gives one.
    const found = [schema.type === undefined ? '' : `type ${printedValue(schema.type)}`, schema.format === undefined ? '' : `format ${printedValue(schema.format)}`].filter(Boolean).join(', ');
    results.push(found === ''
      ? { message: `${name} is declared without type or format. ${advice}.`, path }
      : { message: `${name} is not declared as a detached JWS: ${found}. ${advice}.`, path });
  }
  for (const [value, path] of declaredValues(declaration)) {
    if (typeof value === 'string' && DETACHED_JWS.test(value)) continue;
    results.push({ message: `${name} example is not a detached compact JWS: ${printedValue(value)}. Give header..signature: two base64url parts around two dots.`, path: [...base, ...path] });
  }
  return results;
}

/**
 * At the headers map or parameter list that lacks Digest (path []), never at the signature: that
 * may be a `$ref`, and Spectral would place the finding at the shared definition, where the
 * findings of every exchange lacking Digest collapse into one that names none of them.
 */
function missingDigest(name: string): IFunctionResult {
  return { message: `${name} is declared without the Digest header it signs. Declare the Digest header beside it.`, path: [] };
}

