import { ruleFunction } from '../lib/rule-function.js';
import { isObject } from '../lib/json.js';
import { identifierWords } from '../lib/words.js';

/** Names (words joined) that carry a secret or a citizen number. */
const SENSITIVE_NAMES = [
  'bsn', 'burgerservicenummer', 'sofinummer', 'password', 'passwd', 'wachtwoord', 'pincode',
  'clientsecret', 'secret', 'accesstoken', 'refreshtoken', 'idtoken', 'apikey', 'privatekey',
];

/** /core/transport/no-sensitive-uris: no query or path parameter named after a secret or a BSN. */
export default ruleFunction<null>({ input: null, options: null }, (parameter) => {
  if (!isObject(parameter) || typeof parameter.name !== 'string') return [];
  if (parameter.in !== 'query' && parameter.in !== 'path') return [];
  const sensitive = sensitiveWord(parameter.name);
  if (sensitive === undefined) return [];
  return [{
    message: `${String(parameter.in)} parameter carries sensitive information in the URI (${sensitive}): ${parameter.name}. Send it in a header or the request body, or use a pseudonym.`,
    path: ['name'],
  }];
});

/** Looks at runs of consecutive words, so `client_secret`, `clientSecret` and `persoonBsn` all match. */
export function sensitiveWord(name: string): string | undefined {
  const words = identifierWords(name);
  for (let start = 0; start < words.length; start += 1) {
    let joined = '';
    for (let end = start; end < words.length; end += 1) {
      joined += words[end];
      if (SENSITIVE_NAMES.includes(joined)) return joined;
    }
  }
  return undefined;
}
