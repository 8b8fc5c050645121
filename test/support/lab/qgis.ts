import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LAB_FIXTURES, makeGebouwenGeoPackage } from './fixtures.js';
import { startLabNginx, stopChild, waitForListener, type LabTlsApi } from './nginx.js';
import { issueLabPki } from './tls.js';

/**
 * QGIS Server 3.22 from Debian (qgis-server) as a site owner runs it for OGC API Features:
 * qgis_mapserv.fcgi under spawn-fcgi (FastCGI on a unix socket), configured by QGIS_SERVER_*
 * environment variables, behind Debian's nginx with TLS. The data set is made when it starts:
 * the three buildings of the MapServer lab in RD New (EPSG:28992), a GeoPackage made by ogr2ogr
 * (gdal-bin), published by a QGIS project (test/fixtures/lab/qgis-lab.qgs) that lists EPSG:28992,
 * EPSG:4258, EPSG:4326 and EPSG:3857 as output CRSs. The API is QGIS's own: /wfs3.
 */
/** QGIS Server behind nginx: its base URL is `https://localhost:PORT/wfs3` (QGIS builds its links from nginx's server_name). */
export type LabQgisServer = LabTlsApi;

export const QGIS_MAPSERV = '/usr/lib/cgi-bin/qgis_mapserv.fcgi';
/** QGIS loads its providers and the project before it listens: seconds on a busy machine. */
const START_SECONDS = 60;

/** The status of a GET over the lab's TLS, or the error's text. */
function statusOf(url: string, caCertificate: string): Promise<number | string> {
  return new Promise((resolve) => {
    const request = https.get(url, { ca: readFileSync(caCertificate), timeout: 10_000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 'no status');
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 10 s')));
    request.on('error', (error) => resolve(error.message));
  });
}

/** Resolves once QGIS answers through nginx: spawn-fcgi's socket is open before QGIS has read its project. */
async function waitForQgis(baseUrl: string, caCertificate: string, exited: () => string | undefined): Promise<void> {
  const deadline = Date.now() + START_SECONDS * 1000;
  for (;;) {
    const why = exited();
    if (why !== undefined) throw new Error(why);
    const status = await statusOf(`${baseUrl}/collections.json`, caCertificate);
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`QGIS Server did not answer 200 on ${baseUrl}/collections.json within ${START_SECONDS} s (last: ${status})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function startQgisServer(): Promise<LabQgisServer> {
  const prefix = mkdtempSync(join(tmpdir(), 'adr-lab-qgis-'));
  const inPrefix = (name: string) => join(prefix, name);
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer();
    rmSync(prefix, { recursive: true, force: true });
  };
  try {
    makeGebouwenGeoPackage(inPrefix('lab.gpkg'));
    writeFileSync(inPrefix('lab.qgs'), readFileSync(join(LAB_FIXTURES, 'qgis-lab.qgs'), 'utf8').replaceAll('@DATA@', inPrefix('lab.gpkg')));
    const pki = issueLabPki(prefix);
    const socket = inPrefix('qgis.sock');
    const nginx = await startLabNginx(prefix, pki, [
      `location /wfs3 { include /etc/nginx/fastcgi_params; fastcgi_pass unix:${socket}; }`,
    ]);
    closers.push(nginx.close);
    // nginx's server_name and the certificate's name: QGIS writes its links with the SERVER_NAME nginx gives it.
    const baseUrl = `https://localhost:${nginx.port}/wfs3`;
    const environment = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      // QGIS keeps a user profile (settings, caches) under HOME: inside the prefix, never the user's.
      HOME: prefix,
      XDG_RUNTIME_DIR: prefix,
      QT_QPA_PLATFORM: 'offscreen',
      QGIS_PROJECT_FILE: inPrefix('lab.qgs'),
      QGIS_SERVER_LOG_STDERR: '1',
      QGIS_SERVER_LOG_LEVEL: '2',
    };
    // -n: spawn-fcgi execs QGIS in the foreground, so the child is qgis_mapserv.fcgi itself.
    const qgis = spawn('spawn-fcgi', ['-n', '-s', socket, '--', QGIS_MAPSERV], { env: environment, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    qgis.stderr?.on('data', (chunk: Buffer) => { stderr = `${stderr}${chunk.toString('utf8')}`.slice(-20_000); });
    // QGIS waiting in FCGI_Accept does not end on SIGTERM; it only reads, so SIGKILL loses nothing.
    closers.push(() => stopChild(qgis, 'SIGKILL'));
    const started = () => `spawn-fcgi (tools/system-packages.sh installs it, and qgis-server) did not start QGIS Server: ${stderr}`;
    await waitForListener(qgis, socket, started);
    await waitForQgis(`${nginx.origin}/wfs3`, pki.caCertificate, () => (qgis.exitCode !== null || qgis.signalCode !== null ? started() : undefined));
    return { baseUrl, plainPort: nginx.plainPort, caCertificate: pki.caCertificate, accessLog: () => readFileSync(inPrefix('access.log'), 'utf8'), close };
  } catch (error) {
    await close();
    throw error;
  }
}
