/**
 * Why a referenced file could not be fetched, in a few words, from the error the `$ref` resolver
 * gave: node-fetch's `FetchError: request to <url> failed, reason: connect ECONNREFUSED ...`,
 * json-ref-readers' `OpenError: Page not found: <url>` and `ReadError: 500 Internal Server
 * Error`, or another resolver's own words (the offline resolver's, adr-check's).
 */
export interface FetchFailure {
  /** One line, without the URL, which the message shows already. */
  cause: string;
  /** `network`: the host was not reached; `http`: it answered with an error; `other`: unknown. */
  kind: 'network' | 'http' | 'other';
}

/** Node's error codes for a host that was not reached, in words. */
const NETWORK_CODES: ReadonlyArray<[RegExp, string]> = [
  [/\bECONNREFUSED\b/, 'connection refused'],
  [/\bENOTFOUND\b/, 'host not found'],
  [/\bEAI_AGAIN\b/, 'DNS lookup failed'],
  [/\b(?:ETIMEDOUT|ESOCKETTIMEDOUT)\b/, 'timed out'],
  [/\bECONNRESET\b/, 'connection reset'],
  [/\bEHOSTUNREACH\b/, 'host unreachable'],
  [/\bENETUNREACH\b/, 'network unreachable'],
];

/**
 * A cause longer than this is cut: a message is read on one line, and a server's status text
 * (in `ReadError: 500 <text>`) is not the linter's to print at any length.
 */
const MAX_CAUSE = 300;

export function describeFetchFailure(message: string, url: string): FetchFailure {
  const line = oneLine(message).replace(/^[A-Za-z]*Error\s*:\s*/, '');
  for (const [code, words] of NETWORK_CODES) if (code.test(line)) return { cause: words, kind: 'network' };
  if (/^Page not found\b/i.test(line)) return { cause: '404 Not Found', kind: 'http' };
  if (/^\d{3}\b/.test(line)) return { cause: shortened(`HTTP ${line}`), kind: 'http' };
  // `not fetched:` would repeat the message's own words.
  const reason = (/^request to \S+ failed, reason:\s*(.*)$/i.exec(line)?.[1] ?? line).replace(/^not fetched:\s*/i, '');
  const cause = oneLine(url === '' ? reason : reason.split(url).join('')).replace(/^[\s:,]+|[\s:,]+$/g, '');
  return { cause: cause === '' ? 'no reason given' : shortened(cause), kind: /offline/i.test(cause) ? 'network' : 'other' };
}

/** Whitespace runs as one space, control characters (a terminal escape in a status text) left out. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '').trim();
}

function shortened(text: string): string {
  return text.length > MAX_CAUSE ? `${text.slice(0, MAX_CAUSE - 1)}…` : text;
}
