import { safeDecode } from './uri.js';

/**
 * Whether a URL stays on the base URL's origin (scheme, host and port) and under its path, as a
 * server would read it. The WHATWG parser already resolves `..`, `%2e%2e` and backslashes; what it
 * leaves a server may still decode into a way out: a segment that decodes (once or twice) to a dot
 * segment, with or without `;parameters` (`..;`), or contains an encoded slash or backslash
 * (`x%2f..%2f..%2fadmin`) is outside.
 */
export function isUnderBase(baseUrl: string, candidate: string): boolean {
  let base: URL;
  let target: URL;
  try {
    base = new URL(baseUrl);
    target = new URL(candidate);
  } catch {
    return false;
  }
  if (target.origin !== base.origin || target.username !== '' || target.password !== '') return false;
  const basePath = base.pathname.replace(/\/+$/, '');
  if (target.pathname !== basePath && !target.pathname.startsWith(`${basePath}/`)) return false;
  return target.pathname.split('/').every(isPlainSegment);
}

const MAX_DECODINGS = 3;

/**
 * A segment that no amount of percent-decoding turns into `.`, `..` or something with a slash.
 * Servlet containers (Tomcat, Jetty) drop a segment's `;parameters` before they resolve dot
 * segments, so `..;x=1` is `..` to them.
 */
function isPlainSegment(segment: string): boolean {
  let text = segment;
  for (let round = 0; round <= MAX_DECODINGS; round += 1) {
    const name = text.split(';')[0] ?? '';
    if (name === '.' || name === '..' || /[/\\]/.test(text)) return false;
    const decoded = safeDecode(text);
    if (decoded === text) return true;
    text = decoded;
  }
  return false;
}
