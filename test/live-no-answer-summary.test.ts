import { noAnswerResult } from '../live/report.js';

/**
 * A check whose requests were not answered: the summary tells a request the address policy refused
 * (never sent, http.ts's error `refused: <reason>`) from one the server did not answer.
 */
const ADVICE = 'adr-check --public-only connects to public addresses only; give --allow with the address, its range or the host name to check it all the same';
const refusedLine = `GET http://127.0.0.2:8080/.well-known/oauth-authorization-server: no answer (refused: 127.0.0.2 is a loopback address (127.0.0.0/8, RFC 1122). ${ADVICE})`;
const privateLine = 'GET /v1/items: no answer (refused: api.example.nl is at 10.0.0.1, a private address (10.0.0.0/8, RFC 1918))';
const silentLine = 'GET /v1/things: no answer (no complete response within 1500 ms)';

test('a refused request is "refused by the address policy" with the reason, not "got no answer"', () => {
  expect(noAnswerResult('nlgov:oauth-flows', [refusedLine])).toEqual({
    code: 'nlgov:oauth-flows',
    verdict: 'error',
    summary: 'not judged: 1 request refused by the address policy (127.0.0.2 is a loopback address (127.0.0.0/8, RFC 1122))',
    details: [refusedLine],
    evidence: [],
  });
});

test('refused and unanswered requests are counted apart; several reasons name the first and count the others', () => {
  expect(noAnswerResult('/core/transport/cors', [silentLine, refusedLine, refusedLine]).summary).toBe('not judged: 2 requests refused by the address policy (127.0.0.2 is a loopback address (127.0.0.0/8, RFC 1122)), 1 got no answer');
  expect(noAnswerResult('/core/transport/cors', [privateLine, refusedLine]).summary).toBe('not judged: 2 requests refused by the address policy (api.example.nl is at 10.0.0.1, a private address (10.0.0.0/8, RFC 1918); 1 other reason)');
});

test('requests the server did not answer still "got no answer", even with "refused" in their path', () => {
  expect(noAnswerResult('/core/http-methods', [silentLine, 'GET /v1/(refused: x): no answer (ECONNRESET: socket hang up)']).summary).toBe('not judged: 2 requests got no answer');
});
