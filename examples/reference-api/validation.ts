import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import type { JsonObject } from './description.js';

/**
 * Request bodies and query parameters are validated against the schemas of the description
 * itself, so a 400 means exactly "does not match what openapi.yaml promises". The whole document
 * is registered as one schema and each schema is compiled by JSON pointer, which keeps the
 * `#/components/schemas/...` references inside it working.
 */

const DOCUMENT_ID = 'urn:nlgov-adr:reference-api';
const addFormats = ajvFormats.default;

export interface InvalidParam {
  name: string;
  reason: string;
}

/** `root` names the value itself in the findings: `body`, or the name of a query parameter. */
export type SchemaValidator = (schemaPointer: string, value: unknown, root?: string) => InvalidParam[];

function fieldName(error: ErrorObject, root: string): string {
  const path = error.instancePath.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const missing = error.keyword === 'required' ? [String(error.params.missingProperty)] : [];
  const name = [...path, ...missing].join('.');
  return name === '' ? root : name;
}

// Dutch, like the rest of the interface; ajv's own messages are English.
function reasonOf(error: ErrorObject): string {
  const params = error.params;
  switch (error.keyword) {
    case 'required': return 'is verplicht';
    case 'type': return `moet van het type ${String(params.type)} zijn`;
    case 'enum': return `moet een van deze waarden zijn: ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'minLength': return `moet minstens ${String(params.limit)} teken(s) lang zijn`;
    case 'maxLength': return `mag hoogstens ${String(params.limit)} teken(s) lang zijn`;
    case 'minItems': return `moet minstens ${String(params.limit)} waarde(n) hebben`;
    case 'maxItems': return `mag hoogstens ${String(params.limit)} waarde(n) hebben`;
    case 'minimum': return `moet minstens ${String(params.limit)} zijn`;
    case 'maximum': return `moet ten hoogste ${String(params.limit)} zijn`;
    case 'pattern': return `moet voldoen aan het patroon ${String(params.pattern)}`;
    case 'format': return `moet een geldige ${String(params.format)} zijn`;
    default: return 'voldoet niet aan het schema';
  }
}

export function describeErrors(errors: ErrorObject[], root: string): InvalidParam[] {
  const seen = new Set<string>();
  return errors.flatMap((error) => {
    const param = { name: fieldName(error, root), reason: reasonOf(error) };
    const key = `${param.name}\u0000${param.reason}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [param];
  });
}

export function createSchemaValidator(document: JsonObject): SchemaValidator {
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(document, DOCUMENT_ID);
  const compiled = new Map<string, ValidateFunction>();
  return (schemaPointer, value, root = 'body') => {
    let validate = compiled.get(schemaPointer);
    if (validate === undefined) {
      // Pointer segments can hold {, } and +, which a URI fragment must carry percent-encoded.
      const fragment = schemaPointer.split('/').map(encodeURIComponent).join('/');
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${fragment}` });
      compiled.set(schemaPointer, validate);
    }
    return validate(value) ? [] : describeErrors(validate.errors ?? [], root);
  };
}
