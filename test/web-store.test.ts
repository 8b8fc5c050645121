import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveOptions } from '../web/options.js';
import { startWebChecker } from '../web/server.js';
import { SqliteStore } from '../web/store.js';

/** The web checker's store: the retention of uploaded descriptions, and what a restart does to checks left running. */
test('uploaded descriptions older than the retention period are removed at start, their reports kept; check again then says so (410)', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'adr-check-web-store-'));
  const day = 86_400_000;
  const store = new SqliteStore(folder);
  const old = { kind: 'static' as const, target: 'openapi.yaml', state: 'done' as const, report: '{"results":[]}', description: 'openapi: 3.0.3' };
  store.insert({ ...old, id: 'O'.repeat(22), createdAt: new Date(Date.now() - 31 * day).toISOString() });
  store.insert({ ...old, id: 'N'.repeat(22), createdAt: new Date(Date.now() - 29 * day).toISOString() });
  store.insert({ id: 'R'.repeat(22), kind: 'live', target: 'https://api.example.nl/v1', state: 'running', createdAt: new Date().toISOString() });
  store.close();
  const checker = await startWebChecker(serveOptions({ port: 0, dataDir: folder, retentionDays: 30 }));
  try {
    expect(checker.store.get('O'.repeat(22))).toMatchObject({ report: '{"results":[]}' });
    expect(checker.store.get('O'.repeat(22))?.description).toBeUndefined();
    expect(checker.store.get('N'.repeat(22))?.description).toBe('openapi: 3.0.3');
    expect(checker.store.get('R'.repeat(22))).toMatchObject({ state: 'failed', error: 'the web checker stopped while this check waited or ran: check again' });
    const again = await fetch(`${checker.origin}/checks/${'O'.repeat(22)}/again`, { method: 'POST', headers: { accept: 'text/html' } });
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('The description of this check was removed after the retention period: upload it again.');
  } finally {
    await checker.close();
    rmSync(folder, { recursive: true, force: true });
  }
});
