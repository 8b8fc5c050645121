import type { LiveCheck } from './context.js';
import { publishOpenapi } from './checks/publish-openapi.js';
import { tls } from './checks/tls.js';
import { noTrailingSlash } from './checks/no-trailing-slash.js';
import { httpMethods } from './checks/http-methods.js';
import { cors } from './checks/cors.js';
import { httpResponseCode } from './checks/http-response-code.js';
import { securityHeaders } from './checks/security-headers.js';
import { versionHeader } from './checks/version-header.js';
import { geoCrsList } from './checks/geo-crs-list.js';
import { geoContentCrsResponseHeader, geoCrsQueryParameter } from './checks/geo-crs-negotiation.js';
import { geoBboxCrsQueryParameter, geoBboxQueryParameter } from './checks/geo-bbox.js';
import { geoGeojsonResponse } from './checks/geo-geojson-response.js';
import { geoContentCrsRequestHeader } from './checks/geo-content-crs-request.js';
import { signingMessage, signingPayload } from './checks/signing.js';
import { oauthFlows, oauthNoTokenInQuery } from './checks/oauth.js';
import { geoTarget } from './geo/discover.js';

/**
 * The geospatial module's checks, run only for a geospatial API (live/geo/discover.ts). The POST
 * (with --unsafe) comes after the reads, so that a copy it creates never shows in their answers;
 * Content-Crs and the media type are judged on the responses the others caused, so they come last.
 */
export const GEO_CHECKS: LiveCheck[] = [geoCrsList, geoCrsQueryParameter, geoBboxQueryParameter, geoBboxCrsQueryParameter, geoContentCrsRequestHeader, geoGeojsonResponse, geoContentCrsResponseHeader].map(inGeoModule);

function inGeoModule(check: LiveCheck): LiveCheck {
  return {
    code: check.code,
    applies: async (context) => (await geoTarget(context)) !== undefined || 'not a geospatial API (no GeoJSON in the description, no /collections or /crss)',
    run: (context) => check.run(context),
  };
}

/** The signing module's checks, run where the description declares a signature header or a response carries one. */
export const SIGNING_CHECKS: LiveCheck[] = [signingPayload, signingMessage];

/**
 * The live checks, in the order they run. The last two judge every response the others caused,
 * so they come last. Later areas (signatures, OAuth) add their checks here.
 */
/** The OAuth profile's checks, run where the description has an oauth2 or openIdConnect scheme or --oauth-metadata is given. */
export const OAUTH_CHECKS: LiveCheck[] = [oauthFlows, oauthNoTokenInQuery];

export const LIVE_CHECKS: LiveCheck[] = [publishOpenapi, tls, noTrailingSlash, httpMethods, cors, httpResponseCode, ...GEO_CHECKS, ...SIGNING_CHECKS, ...OAUTH_CHECKS, securityHeaders, versionHeader];
