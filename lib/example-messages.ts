import type { IFunctionResult } from '@stoplight/spectral-core';
import betterAjvErrors from '@stoplight/better-ajv-errors';
import type { ErrorObject } from 'ajv';
import type { ExampleError } from './ajv-interpreter.js';
import { isObject, type JsonPath } from './json.js';

/*
 * Findings from ajv errors, worded as spectral-functions' `schema` (dist/schema/index.js) and
 * spectral:oas's `oasSchema` word them, so that the replaced rules say exactly what they said.
 */

/** Findings for the errors of one value at `path`; their paths extend it. */
export function describeErrors(errors: ExampleError[], value: unknown, path: JsonPath): IFunctionResult[] {
  const worded = errors.map(withNullable);
  const unmatched = unmatchedCombinators(worded);
  // better-ajv-errors takes the schema but does not read it; the expanded copy does not exist here.
  // Of each error it reads the keyword, instancePath, params and message, which ExampleError has.
  return betterAjvErrors(null, worded as ErrorObject[], { propertyPath: path, targetValue: value }).map(({ suggestion, error, path: errorPath }) => ({
    message: describeCombinator(describeArrayItem(suggestion !== undefined ? `${error}. ${suggestion}` : error, errorPath), unmatched.get(errorPath)),
    path: [...path, ...(errorPath !== '' ? errorPath.replace(/^\//, '').split('/') : [])],
  }));
}

/**
 * ajv words a type error on a nullable schema `must be string`; spectral adds `,null`. It finds
 * the flag through the schema path in the expanded schema, and gives up where that path passes a
 * list (allOf, anyOf, oneOf, a tuple's items): there the message stays as ajv's. With shared
 * schemas compiled apart, ajv's path is relative to one of them, so the error's own
 * `parentSchema` (ajv's `verbose`) gives the flag, and the interpreter says whether its path
 * passed a list. A copy is worded: the same error may be given again for another place.
 */
function withNullable(error: ExampleError): ExampleError {
  const rewritten = error.keyword === 'type' && error.throughList !== true && isObject(error.parentSchema) && error.parentSchema.nullable === true;
  return rewritten ? { ...error, message: `${error.message ?? ''},null` } : error;
}

function describeArrayItem(message: string, errorPath: string): string {
  const index = errorPath.split('/').pop();
  if (index === undefined || !/^\d+$/.test(index)) return message;
  const typePrefix = `"${index}" property type`;
  if (message.startsWith(typePrefix)) return `Item at index ${index}${message.slice(typePrefix.length)}`;
  const prefix = `"${index}" property`;
  return message.startsWith(prefix) ? `Item at index ${index}${message.slice(prefix.length)}` : message;
}

function unmatchedCombinators(errors: ExampleError[]): Map<string, string> {
  const unmatched = new Map<string, string>();
  for (const { keyword, instancePath, params } of errors) {
    if ((keyword === 'oneOf' || keyword === 'anyOf') && !Array.isArray((params as { passingSchemas?: unknown }).passingSchemas)) {
      unmatched.set(instancePath, keyword);
    }
  }
  return unmatched;
}

function describeCombinator(message: string, keyword: string | undefined): string {
  return keyword !== undefined && message.endsWith(` in ${keyword}`)
    ? `${message}. None of the schemas matched, see the other errors reported for this value`
    : message;
}
