#!/usr/bin/env sh
# Installs the Debian packages the tests and CI's comparison start as real servers, only those
# missing: openssl (s_server, certificates, OCSP), nginx (test/tls-nginx.test.ts; Debian keeps it
# in /usr/sbin, not on every user's PATH), testssl.sh (npm run compare:testssl), GNU time (the
# peak memory of adr-check against hostile servers, test/live-hostile.test.ts), pre-commit (the
# hook of .pre-commit-hooks.yaml installed and run by it, test/pre-commit.test.ts) and chromium (the
# HTML report opened in a real browser by playwright-core, test/html-report.test.ts), and for the lab
# of real implementations (test/lab/mapserver.test.ts): cgi-mapserver (MapServer 8's mapserv, OGC API
# Features), spawn-fcgi (runs mapserv as FastCGI behind nginx) and gdal-bin (ogr2ogr makes the RD New
# data set); qgis-server (QGIS Server 3.22's OGC API Features under spawn-fcgi,
# test/lab/qgis-server.test.ts; about 250 packages, two minutes); python3-fastapi and python3-uvicorn
# (a FastAPI app run by Debian's /usr/bin/python3, test/lab/fastapi.test.ts). The tests fail without
# them rather than skip, so the README's test command runs this first. Debian or Ubuntu; elsewhere
# install the twelve yourself.
set -eu
missing=""
command -v openssl >/dev/null 2>&1 || missing="$missing openssl"
{ command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx; } || missing="$missing nginx"
command -v testssl >/dev/null 2>&1 || missing="$missing testssl.sh"
test -x /usr/bin/time || missing="$missing time"
command -v pre-commit >/dev/null 2>&1 || missing="$missing pre-commit"
test -x /usr/bin/chromium || missing="$missing chromium"
# test/lab/mapserver.test.ts: MapServer's mapserv, run under spawn-fcgi, on a GeoPackage ogr2ogr makes.
test -x /usr/lib/cgi-bin/mapserv || missing="$missing cgi-mapserver"
command -v spawn-fcgi >/dev/null 2>&1 || missing="$missing spawn-fcgi"
command -v ogr2ogr >/dev/null 2>&1 || missing="$missing gdal-bin"
# test/lab/qgis-server.test.ts: QGIS Server's FastCGI program, run under spawn-fcgi.
test -x /usr/lib/cgi-bin/qgis_mapserv.fcgi || missing="$missing qgis-server"
# test/lab/fastapi.test.ts: Debian's own interpreter, not a python3 earlier on PATH.
/usr/bin/python3 -c 'import fastapi' >/dev/null 2>&1 || missing="$missing python3-fastapi"
/usr/bin/python3 -c 'import uvicorn' >/dev/null 2>&1 || missing="$missing python3-uvicorn"
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "system-packages: apt-get not found; install these yourself:$missing" >&2
  exit 1
fi
as_root=""
[ "$(id -u)" -eq 0 ] || as_root="sudo"
echo "system-packages: installing$missing"
$as_root apt-get update -qq
# shellcheck disable=SC2086 # one word per package
DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq $missing
