import { oas3 } from '@stoplight/spectral-formats';
import signatureHeader from '../functions/signatureHeader.js';
import { PARAMETER_LISTS_GIVEN, RESPONSE_HEADERS_GIVEN, rule, type NlgovRule } from './rule.js';

/** Where signature headers are declared: responses, shared headers and request header parameters. */
const SIGNATURE_HEADERS_GIVEN = [RESPONSE_HEADERS_GIVEN, '$.components.headers', ...PARAMETER_LISTS_GIVEN];

export const signingRules: Record<string, NlgovRule> = {
  '/signing/payload': rule('/signing/payload', {
    description: 'Payload-Signature is declared as a string of format jws-compact-detached, with detached compact JWS examples, and the signed exchange also declares Digest.',
    severity: 'error',
    formats: [oas3],
    given: SIGNATURE_HEADERS_GIVEN,
    then: { function: signatureHeader, functionOptions: { header: 'Payload-Signature' } },
  }),
  '/signing/message': rule('/signing/message', {
    description: 'Message-Signature is declared like Payload-Signature, and the signed exchange also declares Digest.',
    severity: 'error',
    formats: [oas3],
    given: SIGNATURE_HEADERS_GIVEN,
    then: { function: signatureHeader, functionOptions: { header: 'Message-Signature' } },
  }),
};
