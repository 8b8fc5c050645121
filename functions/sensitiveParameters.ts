import { ruleFunction } from '../lib/rule-function.js';
import { asArray, isObject } from '../lib/json.js';
import { contentSchemaOf } from '../lib/openapi.js';
import { capitalize, identifierWords } from '../lib/words.js';

/**
 * Names (words joined) of citizen identification numbers: the BSN and the sofinummer before it,
 * and the A-nummer, the administratienummer of the BRP (`aNummer`, `a_nummer`, StUF's
 * `inpA_nummer`). Only the Dutch spellings: the English `aNumber` is as often "a number".
 */
const CITIZEN_NUMBERS = [
  'bsn', 'bsnnr', 'burgerservicenummer', 'burgerservicenr', 'citizenservicenumber', 'sofinummer', 'sofinr',
  'anummer', 'administratienummer',
];
/** Names (words joined) that carry a secret. */
const SECRETS = [
  'password', 'passwd', 'wachtwoord', 'pincode', 'clientsecret', 'secret', 'accesstoken', 'refreshtoken',
  'idtoken', 'authtoken', 'bearertoken', 'apitoken', 'sessiontoken', 'csrftoken', 'xsrftoken', 'jwttoken', 'jwtassertion',
  'apikey', 'privatekey', 'authorization', 'credentials', 'sessionid',
];
/** Too common as part of a name (`pageToken`), so only sensitive as the whole name. */
const SENSITIVE_WHOLE_NAMES = ['token', 'pin', 'session', 'bearer'];
/** A JWT ends the names that carry one (`signedJwt`, `idJwt`); before another word it names a property of one (`jwtIssuer`). */
const SENSITIVE_LAST_WORDS = ['jwt'];

export type SensitiveKind = 'citizen number' | 'secret';

export interface SensitiveWord {
  /** The words of the name that matched, joined (`persoonBsn` -> `bsn`). */
  word: string;
  kind: SensitiveKind;
}

/** What the message says a parameter of each kind puts in the URI, and where it belongs instead. */
const WHAT: Record<SensitiveKind, { carries: string; advice: string }> = {
  'citizen number': {
    carries: 'a citizen identification number',
    advice: 'Send it in the request body (for example of a POST on a search resource such as .../_zoek) or a header, or use a pseudonym',
  },
  secret: { carries: 'a secret', advice: 'Send it in a header (credentials in Authorization) or the request body' },
};

/** /core/transport/no-sensitive-uris: no query or path parameter named after a secret or a citizen number. */
export default ruleFunction<null>({ input: null, options: null }, (parameter) => {
  if (!isObject(parameter) || typeof parameter.name !== 'string') return [];
  if (parameter.in !== 'query' && parameter.in !== 'path') return [];
  if (isBooleanSchema(parameter.schema) || isBooleanSchema(contentSchemaOf(parameter)?.[1])) return [];
  const sensitive = sensitiveWord(parameter.name);
  if (sensitive === undefined) return [];
  const { carries, advice } = WHAT[sensitive.kind];
  // The matched word is shown where the name holds more (`persoonBsn (bsn)`), not after `bsn` itself.
  const matched = identifierWords(parameter.name).join('') === sensitive.word ? '' : ` (${sensitive.word})`;
  return [{
    message: `${capitalize(String(parameter.in))} parameter puts ${carries} in the URI: ${parameter.name}${matched}. ${advice}.`,
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
export function sensitiveWord(name: string): SensitiveWord | undefined {
  const words = identifierWords(name);
  const whole = words.join('');
  if (SENSITIVE_WHOLE_NAMES.includes(whole)) return { word: whole, kind: 'secret' };
  const last = words[words.length - 1];
  if (last !== undefined && SENSITIVE_LAST_WORDS.includes(last)) return { word: last, kind: 'secret' };
  for (let start = 0; start < words.length; start += 1) {
    let joined = '';
    for (let end = start; end < words.length; end += 1) {
      joined += words[end];
      if (CITIZEN_NUMBERS.includes(joined)) return { word: joined, kind: 'citizen number' };
      if (SECRETS.includes(joined)) return { word: joined, kind: 'secret' };
    }
  }
  return undefined;
}
