import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { certificatesFor } from '../examples/reference-api/tls.js';
import { main } from '../live/main.js';
import { serveOptions } from '../web/options.js';
import { startWebChecker } from '../web/server.js';

/**
 * The web checker is a government API too: adr-check run against its JSON API (HTTPS with --cert
 * and --key, an allowed CORS origin) passes every live check, and its description lints clean.
 */
test('adr-check against the web checker itself: every live check passes and the description has no finding', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'adr-check-web-self-'));
  const certificates = await certificatesFor('127.0.0.1');
  const checker = await startWebChecker(serveOptions({ port: 0, dataDir: folder, tls: { cert: certificates.cert, key: certificates.key }, corsOrigins: ['https://app.example.nl'] }));
  try {
    writeFileSync(join(folder, 'ca.pem'), certificates.caPem);
    const output = join(folder, 'report.json');
    const code = await main([`${checker.origin}/api/v1`, '--ca', join(folder, 'ca.pem'), '--cors-origin', 'https://app.example.nl', '--format', 'json', '--output', output], {});
    const report = JSON.parse(readFileSync(output, 'utf8')) as { results: { code: string; verdict: string; details: string[] }[]; staticFindings: unknown[]; lint: { status: string } };
    expect(Object.fromEntries(report.results.map((result) => [result.code, result.verdict]))).toEqual({
      '/core/publish-openapi': 'pass',
      '/core/transport/tls': 'pass',
      '/core/no-trailing-slash': 'pass',
      '/core/http-methods': 'pass',
      '/core/transport/cors': 'pass',
      '/core/http-response-code': 'pass',
      '/core/transport/security-headers': 'pass',
      '/core/version-header': 'pass',
    });
    // The allowed origin was tested (echoed with Vary: Origin, its preflight answered): no note that it was not.
    expect(report.results.find((result) => result.code === '/core/transport/cors')?.details).toEqual([]);
    expect([report.lint.status, report.staticFindings]).toEqual(['done', []]);
    expect(code).toBe(0);
  } finally {
    await checker.close();
    rmSync(folder, { recursive: true, force: true });
  }
}, 120000);
