import { ruleFunction } from '../lib/rule-function.js';
import { asArray, isObject } from '../lib/json.js';
import { contentSchemaOf } from '../lib/openapi.js';
import { capitalize, identifierWords } from '../lib/words.js';

/** Names (words joined) that carry a secret or a citizen number. */
const SENSITIVE_NAMES = [
  'bsn', 'bsnnr', 'burgerservicenummer', 'burgerservicenr', 'citizenservicenumber', 'sofinummer', 'sofinr',
  'password', 'passwd', 'wachtwoord', 'pincode', 'clientsecret', 'secret', 'accesstoken', 'refreshtoken',
  'idtoken', 'authtoken', 'bearertoken', 'apitoken', 'sessiontoken', 'csrftoken', 'xsrftoken', 'jwttoken', 'jwtassertion',
  'apikey', 'privatekey', 'authorization', 'credentials', 'sessionid',
];
/** Too common as part of a name (`pageToken`), so only sensitive as the whole name. */
const SENSITIVE_WHOLE_NAMES = ['token', 'pin', 'session', 'bearer'];
/** A JWT ends the names that carry one (`signedJwt`, `idJwt`); before another word it names a property of one (`jwtIssuer`). */
const SENSITIVE_LAST_WORDS = ['jwt'];

/** /core/transport/no-sensitive-uris: no query or path parameter named after a secret or a BSN. */
export default ruleFunction<null>({ input: null, options: null }, (parameter) => {
  if (!isObject(parameter) || typeof parameter.name !== 'string') return [];
  if (parameter.in !== 'query' && parameter.in !== 'path') return [];
  if (isBooleanSchema(parameter.schema) || isBooleanSchema(contentSchemaOf(parameter)?.[1])) return [];
  const sensitive = sensitiveWord(parameter.name);
  if (sensitive === undefined) return [];
  return [{
    message: `${capitalize(String(parameter.in))} parameter carries sensitive information in the URI (${sensitive}): ${parameter.name}. Send it in a header or the request body, or use a pseudonym.`,
    path: ['name'],
  }];
});

/**
 * A yes/no flag (`bsnAanwezig`) cannot carry the secret or number its name mentions: a schema of
 * type boolean (or boolean and null), itself or through an `allOf` part, which binds it as well.
 */
function isBooleanSchema(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('boolean') && types.every((type) => type === 'boolean' || type === 'null')) return true;
  return asArray(schema.allOf).some(isBooleanSchema);
}

/** Looks at runs of consecutive words, so `client_secret`, `clientSecret` and `persoonBsn` all match. */
export function sensitiveWord(name: string): string | undefined {
  const words = identifierWords(name);
  const whole = words.join('');
  if (SENSITIVE_WHOLE_NAMES.includes(whole)) return whole;
  const last = words[words.length - 1];
  if (last !== undefined && SENSITIVE_LAST_WORDS.includes(last)) return last;
  for (let start = 0; start < words.length; start += 1) {
    let joined = '';
    for (let end = start; end < words.length; end += 1) {
      joined += words[end];
      if (SENSITIVE_NAMES.includes(joined)) return joined;
    }
  }
  return undefined;
}
