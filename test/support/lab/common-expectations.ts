import type { Expectation } from './verdicts.js';

/**
 * Verdicts that hold for any API the lab puts behind Debian's nginx, or serves on plain HTTP:
 * they judge nginx's TLS defaults or the lack of TLS, not the implementation behind it.
 */

/** /core/transport/tls behind Debian's nginx 1.22 with its own ssl_protocols line and OpenSSL's default ciphers. */
export function debianNginxTls(cipherSuite: RegExp): Expectation {
  return {
    code: '/core/transport/tls', verdict: 'fail',
    spec: '"Supporting protocols, ciphers or key sizes classed as insufficient fails the check." (TLS-GUIDELINES.md: *_CBC_SHA, *_CCM_8, ffdhe2048: Insufficient)',
    why: "Debian's nginx TLS defaults offer CBC-SHA1 and CCM_8 suites and ffdhe2048.",
    details: [cipherSuite, /^Insufficient: key exchange group ffdhe2048$/],
    // Issue 22, messages: the accepted protocols are not listed as if they were the insufficient items.
    absent: [/insufficient \(TLSv1\.3/],
  };
}

/** /core/transport/tls for a server that speaks plain HTTP only. */
export function plainHttpTls(server: string): Expectation {
  return {
    code: '/core/transport/tls', verdict: 'fail',
    spec: '"All information is exchanged over TLS, everywhere and always."',
    why: `${server} serves plain HTTP.`,
    details: [/served over http, not https/],
  };
}
