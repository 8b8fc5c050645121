import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import { isObject, printedValue } from '../lib/json.js';

/** Mailboxes of a whole organisation rather than of the team that runs the API. */
const GENERIC_MAILBOXES = new Set([
  'info', 'contact', 'noreply', 'donotreply', 'admin', 'postmaster', 'webmaster', 'hostmaster', 'mailer',
  'secretariaat', 'algemeen', 'receptie', 'communicatie', 'helpdesk', 'support', 'servicedesk', 'service',
  'klantenservice', 'klantcontact', 'office', 'post', 'privacy',
]);
/** RFC 5322 dot-atom local part at a host name with a top-level domain. */
const EMAIL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/;
/** WHATWG URL parsing forgives `https:host` and `https:///path`; the text itself must have an authority. */
const HTTP_URL_TEXT = /^https?:\/\/[^/?#\s@]+/i;
/** WHATWG URL parsing also percent-encodes spaces (`https://x.nl/a b`); a URL has none (RFC 3986). */
const WHITESPACE = /\s/;

/** /core/doc-openapi-contact: `info.contact` with name, absolute http(s) url and a team mailbox. */
export default ruleFunction<null>({ input: null, options: null }, (document) => {
  if (!isObject(document)) return [];
  const info = document.info;
  const contact = isObject(info) ? info.contact : undefined;
  if (contact === undefined) {
    return [{ message: 'Contact details are missing. Add info.contact with the name, url and email of the team.', path: isObject(info) ? ['info'] : [] }];
  }
  if (!isObject(contact)) {
    return [{ message: `Contact details are not an object: ${printedValue(contact)}. Give info.contact as an object with name, url and email.`, path: ['info', 'contact'] }];
  }
  return [...nameFindings(contact.name), ...urlFindings(contact.url), ...emailFindings(contact.email)].map((finding) => ({ ...finding, path: ['info', ...(finding.path ?? [])] }));
});

function nameFindings(name: unknown): IFunctionResult[] {
  if (typeof name === 'string' && name.trim() !== '') return [];
  if (name === undefined) return [{ message: 'Contact name is missing. Add info.contact.name with the name of the team.', path: ['contact'] }];
  return [{ message: `Contact name is empty or not text: ${describe(name)}. Give info.contact.name the name of the team.`, path: ['contact', 'name'] }];
}

function urlFindings(url: unknown): IFunctionResult[] {
  if (typeof url === 'string' && isAbsoluteHttpUrl(url)) return [];
  if (url === undefined) return [{ message: 'Contact url is missing. Add info.contact.url with an absolute https URL of the team\'s page.', path: ['contact'] }];
  return [{ message: `Contact url is not an absolute http(s) URL: ${describe(url)}. Give info.contact.url an absolute https URL.`, path: ['contact', 'url'] }];
}

function emailFindings(email: unknown): IFunctionResult[] {
  const path = ['contact', ...(email === undefined ? [] : ['email'])];
  if (email === undefined) return [{ message: 'Contact email is missing. Add info.contact.email with the mailbox of the team.', path }];
  if (typeof email !== 'string' || !EMAIL.test(asciiDomain(email.trim()))) {
    return [{ message: `Contact email is not a valid address: ${describe(email)}. Give info.contact.email the mailbox of the team.`, path }];
  }
  if (GENERIC_MAILBOXES.has(mailboxName(email))) {
    return [{ message: `Contact email is a generic organisation-wide mailbox: ${email}. Give the mailbox of the team that runs the API.`, path }];
  }
  return [];
}

/**
 * The address with an internationalised domain in its ASCII form (`bücher.de` ->
 * `xn--bcher-kva.de`), which is how mail finds it; a domain that has none stays as written.
 */
function asciiDomain(email: string): string {
  const at = email.lastIndexOf('@');
  const domain = email.slice(at + 1);
  // Only a domain with letters outside ASCII needs it; the URL parser (a global, so the Spectral
  // CLI's bundler needs no Node module) spells such a host in its ASCII form.
  if (at < 0 || /^[\x00-\x7F]*$/.test(domain)) return email;
  // Letters, digits and marks of any script only: the URL parser would also drop a soft hyphen or
  // read `。` as a dot, and the address as written would still be no mailbox.
  if (!/^[\p{L}\p{N}\p{M}.-]+$/u.test(domain)) return email;
  try {
    return `${email.slice(0, at)}@${new URL(`http://${domain}`).hostname}`;
  } catch {
    return email;
  }
}

/** `no_reply+api@` is `noreply`: tags and separators do not make a generic box personal. */
function mailboxName(email: string): string {
  const localPart = (email.trim().split('@')[0] ?? '').toLowerCase();
  return (localPart.split('+')[0] ?? '').replace(/[-_.]/g, '');
}

function isAbsoluteHttpUrl(value: string): boolean {
  if (!HTTP_URL_TEXT.test(value) || WHITESPACE.test(value.trim())) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A found value as the message shows it: an empty or blank string quoted, so that it is seen. */
function describe(value: unknown): string {
  return typeof value === 'string' && value.trim() === '' ? JSON.stringify(value) : printedValue(value);
}
