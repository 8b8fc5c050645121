import type { CheckContext, LiveCheck } from '../context.js';
import { evidenceOf, type CheckResult, type Evidence } from '../report.js';

const ACCEPTED_PROTOCOLS = new Set(['TLSv1.2', 'TLSv1.3']);

/**
 * A first /core/transport/tls: the certificate verifies for the host and is not expired, the
 * negotiated protocol is TLS 1.2 or newer, and plain HTTP on the same host serves no API content.
 * Full enumeration and NCSC grading of what the server accepts come with the TLS prober.
 */
export const tls: LiveCheck = {
  code: '/core/transport/tls',
  async run(context: CheckContext): Promise<CheckResult> {
    const base = new URL(context.baseUrl);
    if (base.protocol !== 'https:') {
      return { code: this.code, verdict: 'fail', summary: `the API is served over ${base.protocol.replace(':', '')}, not https`, details: [], evidence: [] };
    }
    const details: string[] = [];
    const evidence: Evidence[] = [];
    const root = await context.get('');
    const info = root.tls;
    if (context.options.insecure) details.push('certificate not verified (--insecure): the TLS check is not done');
    else if (root.error !== undefined && info === undefined) details.push(`no TLS connection: ${root.error}`);
    if (info !== undefined && !ACCEPTED_PROTOCOLS.has(info.protocol ?? '')) details.push(`negotiated ${info.protocol ?? 'unknown protocol'}, below TLS 1.2`);
    if (info?.validTo !== undefined && Date.parse(info.validTo) < Date.now()) details.push(`certificate expired on ${info.validTo}`);
    const plain = await context.send({ method: 'GET', url: plainHttpUrl(context, base), anonymous: true });
    if (plain.status !== undefined && plain.status < 300 && /json|yaml/i.test(plain.headers['content-type'] ?? '')) {
      details.push(`plain HTTP serves API content: ${plain.status} ${plain.headers['content-type']}`);
      evidence.push(evidenceOf(plain, ['Content-Type'], undefined, true));
    }
    if (context.options.insecure) return { code: this.code, verdict: 'skip', summary: 'not done: --insecure skips certificate checks', details, evidence };
    if (details.length > 0) return { code: this.code, verdict: 'fail', summary: 'transport security is not as the standard requires', details, evidence: [evidenceOf(root), ...evidence] };
    const plainNote = plain.status === undefined ? 'plain HTTP is closed' : `plain HTTP answers ${plain.status} without API content`;
    return { code: this.code, verdict: 'pass', summary: `${info?.protocol ?? 'TLS'} with a valid certificate; ${plainNote}`, details: [], evidence: [] };
  },
};

function plainHttpUrl(context: CheckContext, base: URL): string {
  const plain = new URL(context.baseUrl);
  plain.protocol = 'http:';
  plain.port = context.options.plainHttpPort === 80 ? '' : String(context.options.plainHttpPort);
  plain.hostname = base.hostname;
  return plain.href;
}
