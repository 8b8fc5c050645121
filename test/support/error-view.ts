import type { ErrorObject } from 'ajv';
import type { ExampleError } from '../../lib/ajv-interpreter.js';
import type { JsonObject } from '../../lib/json.js';

/**
 * What lib/example-messages.ts reads of an error, to compare ajv's errors with lib/ajv-interpreter.ts's:
 * keyword, instance path, params and message, and for a type error the `nullable` flag of the
 * schema holding it (the message rewrite reads it).
 */
export interface ErrorView {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string | undefined;
  nullable?: unknown;
}

export function errorView(error: ExampleError | ErrorObject): ErrorView {
  const { keyword, instancePath, params, message } = error;
  const shown: ErrorView = { keyword, instancePath, params, message };
  if (keyword === 'type') shown.nullable = (error.parentSchema as JsonObject | undefined)?.nullable;
  return shown;
}
