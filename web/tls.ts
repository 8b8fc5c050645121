import { constants } from 'node:crypto';
import type { SecureContextOptions, TlsOptions } from 'node:tls';

/**
 * The web checker's own HTTPS (--cert, --key), set up as the NCSC guidelines grade Good or
 * Sufficient, so that adr-check's /core/transport/tls passes on it: Node's defaults would offer
 * CBC and RSA key exchange suites, and OpenSSL 3 the ffdhe groups.
 */
export function webTlsOptions(cert: string, key: string): TlsOptions & SecureContextOptions {
  return {
    cert,
    key,
    minVersion: 'TLSv1.2',
    ciphers: 'TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256',
    honorCipherOrder: true,
    ecdhCurve: 'X25519:P-256:P-384:P-521:X448',
    sigalgs: 'ecdsa_secp256r1_sha256:ecdsa_secp384r1_sha384:ecdsa_secp521r1_sha512:rsa_pss_rsae_sha256:rsa_pss_rsae_sha384:rsa_pss_rsae_sha512:rsa_pss_pss_sha256:rsa_pss_pss_sha384:rsa_pss_pss_sha512:rsa_pkcs1_sha256:rsa_pkcs1_sha384:rsa_pkcs1_sha512:ed25519:ed448',
    secureOptions: constants.SSL_OP_NO_RENEGOTIATION | constants.SSL_OP_NO_COMPRESSION,
  };
}
