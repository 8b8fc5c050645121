import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LAB_FIXTURES, makeGebouwenGeoPackage } from './fixtures.js';
import { startLabNginx, stopChild, waitForListener, type LabTlsApi } from './nginx.js';
import { issueLabPki } from './tls.js';

/**
 * MapServer 8 from Debian (cgi-mapserver) as a site owner runs it for OGC API Features: mapserv
 * under spawn-fcgi (FastCGI on a unix socket), behind Debian's nginx with TLS. The data set is
 * made when it starts: three buildings in RD New (EPSG:28992), turned into a GeoPackage by
 * ogr2ogr (gdal-bin). The API is MapServer's own URL for a map alias: /lab/ogcapi.
 */
export type MapServerVariant =
  /** As MapServer comes: its description only at /api, linked from the landing page as service-desc. */
  | 'service-desc-only'
  /** nginx also serves MapServer's description at /openapi.json (an internal rewrite to /api?f=json). */
  | 'openapi-json';

/** MapServer behind nginx: its base URL is `https://127.0.0.1:PORT/lab/ogcapi`. */
export type LabMapServer = LabTlsApi;

export const MAPSERV = '/usr/lib/cgi-bin/mapserv';

export async function startMapServer(variant: MapServerVariant): Promise<LabMapServer> {
  const prefix = mkdtempSync(join(tmpdir(), 'adr-lab-mapserver-'));
  const inPrefix = (name: string) => join(prefix, name);
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer();
    rmSync(prefix, { recursive: true, force: true });
  };
  try {
    makeGebouwenGeoPackage(inPrefix('lab.gpkg'));
    const pki = issueLabPki(prefix);
    const socket = inPrefix('mapserv.sock');
    const openapiJson = variant === 'openapi-json' ? ['location = /lab/ogcapi/openapi.json { rewrite ^ /lab/ogcapi/api?f=json last; }'] : [];
    const nginx = await startLabNginx(prefix, pki, [
      ...openapiJson,
      `location /lab/ogcapi { include /etc/nginx/fastcgi_params; fastcgi_param PATH_INFO $uri; fastcgi_pass unix:${socket}; }`,
    ]);
    closers.push(nginx.close);
    const baseUrl = `${nginx.origin}/lab/ogcapi`;
    writeFileSync(inPrefix('lab.map'), readFileSync(join(LAB_FIXTURES, 'lab.map'), 'utf8').replaceAll('@DATA@', inPrefix('lab.gpkg')).replaceAll('@ONLINE_RESOURCE@', baseUrl));
    writeFileSync(inPrefix('mapserver.conf'), ['CONFIG', '  ENV', `    MS_MAP_PATTERN "^${prefix}/"`, '  END', '  MAPS', `    lab "${inPrefix('lab.map')}"`, '  END', 'END', ''].join('\n'));
    // -n: spawn-fcgi execs mapserv in the foreground, so the child is mapserv itself.
    const mapserv = spawn('spawn-fcgi', ['-n', '-s', socket, '--', MAPSERV], { env: { ...process.env, MAPSERVER_CONFIG_FILE: inPrefix('mapserver.conf') }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    mapserv.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
    // mapserv waiting in FCGI_Accept ignores SIGTERM; it only reads, so SIGKILL loses nothing.
    closers.push(() => stopChild(mapserv, 'SIGKILL'));
    await waitForListener(mapserv, socket, () => `spawn-fcgi (tools/system-packages.sh installs it) did not start mapserv: ${stderr}`);
    return { baseUrl, plainPort: nginx.plainPort, caCertificate: pki.caCertificate, accessLog: () => readFileSync(inPrefix('access.log'), 'utf8'), close };
  } catch (error) {
    await close();
    throw error;
  }
}
