import { isAbsolute, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Finding } from '../lib/lint.js';
import type { Report } from './report.js';

/**
 * Where a static finding is, for every format: the description file of a static run (or a file it
 * $refs), relative to the working directory as CI annotations and code scanning want it; the URL of
 * the description fetched in a live run. The line where the lint knows it (a line below 1 is not a
 * line: a finding from a document that was not parsed).
 */
export interface FindingLocation {
  /** For a person: a relative path (or the path as it is, outside the working directory) or a URL. */
  label: string;
  /** For a workflow annotation's `file`: a path relative to the working directory; none for a URL or a file outside it. */
  file?: string;
  /** For SARIF's artifactLocation.uri: a relative reference, a file:// URL outside the working directory, or the URL. */
  uri: string;
  line?: number;
}

export const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export function findingLocation(finding: Finding, report: Pick<Report, 'document' | 'target'>, workingDirectory = process.cwd()): FindingLocation {
  const line = Number.isInteger(finding.line) && finding.line >= 1 ? finding.line : undefined;
  return { ...place(finding.source ?? report.document ?? report.target, workingDirectory), ...(line === undefined ? {} : { line }) };
}

/** A file or URL as a location without a line: a description as a whole. */
export function place(where: string, workingDirectory = process.cwd()): FindingLocation {
  if (HAS_SCHEME.test(where) && !isAbsolute(where)) return { label: where, uri: uriReference(where) };
  const path = relative(workingDirectory, where);
  const inside = path !== '' && path !== '..' && !path.startsWith(`..${sep}`) && !isAbsolute(path);
  const portable = path.split(sep).join('/');
  return inside ? { label: portable, file: portable, uri: portable.split('/').map(encodeURIComponent).join('/') } : { label: where, uri: pathToFileURL(where).href };
}

/** `file:line`, or the file alone where the line is not known. */
export function locationLabel(location: FindingLocation): string {
  return location.line === undefined ? location.label : `${location.label}:${location.line}`;
}

/** Characters a URI reference holds as they are (RFC 3986: unreserved, reserved, and % before two hex digits). */
const URI_CHARACTER = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2}/y;

/**
 * A URL as a server sent it, made a valid URI reference for SARIF: every other character (a space,
 * a control, a lone %, a letter beyond ASCII) percent-encoded as UTF-8. A URL that is valid stays
 * as it is.
 */
export function uriReference(text: string): string {
  let result = '';
  let index = 0;
  while (index < text.length) {
    URI_CHARACTER.lastIndex = index;
    const match = URI_CHARACTER.exec(text);
    if (match !== null) {
      result += match[0];
      index += match[0].length;
      continue;
    }
    const codePoint = text.codePointAt(index) ?? 0;
    const character = String.fromCodePoint(codePoint);
    for (const byte of new TextEncoder().encode(character)) result += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    index += character.length;
  }
  return result;
}
