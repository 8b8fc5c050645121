import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import { isObject } from '../lib/json.js';

/** Mailboxes of a whole organisation rather than of the team that runs the API. */
const GENERIC_MAILBOXES = new Set([
  'info', 'contact', 'noreply', 'no-reply', 'donotreply', 'do-not-reply', 'admin', 'postmaster',
  'webmaster', 'hostmaster', 'secretariaat', 'algemeen', 'receptie', 'communicatie', 'helpdesk',
]);
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** /core/doc-openapi-contact: `info.contact` with name, absolute http(s) url and a team mailbox. */
export default ruleFunction<null>({ input: null, options: null }, (info) => {
  if (!isObject(info)) return [];
  const contact = info.contact;
  if (!isObject(contact)) {
    return [{ message: 'Contact details are missing: no info.contact. Add info.contact with name, url and email.', path: [] }];
  }
  return [...nameFindings(contact.name), ...urlFindings(contact.url), ...emailFindings(contact.email)];
});

function nameFindings(name: unknown): IFunctionResult[] {
  if (typeof name === 'string' && name.trim() !== '') return [];
  return [{ message: `Contact name is missing: ${describe(name)}. Add info.contact.name.`, path: ['contact', ...(name === undefined ? [] : ['name'])] }];
}

function urlFindings(url: unknown): IFunctionResult[] {
  if (typeof url === 'string' && isAbsoluteHttpUrl(url)) return [];
  const problem = url === undefined ? 'is missing' : 'is not an absolute http(s) URL';
  return [{ message: `Contact url ${problem}: ${describe(url)}. Add info.contact.url with an absolute https URL.`, path: ['contact', ...(url === undefined ? [] : ['url'])] }];
}

function emailFindings(email: unknown): IFunctionResult[] {
  const path = ['contact', ...(email === undefined ? [] : ['email'])];
  if (typeof email !== 'string' || !EMAIL.test(email.trim())) {
    const problem = email === undefined ? 'is missing' : 'is not a valid address';
    return [{ message: `Contact email ${problem}: ${describe(email)}. Add info.contact.email with the mailbox of the team.`, path }];
  }
  const localPart = (email.trim().split('@')[0] ?? '').toLowerCase();
  if (GENERIC_MAILBOXES.has(localPart)) {
    return [{ message: `Contact email is a generic organisation-wide mailbox: ${email}. Give the mailbox of the team that runs the API.`, path }];
  }
  return [];
}

function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'none';
  return typeof value === 'string' ? (value === '' ? 'empty string' : value) : JSON.stringify(value);
}
