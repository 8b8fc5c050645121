import { isUnderBase } from '../lib/url-scope.js';

const BASE = 'https://api.example.nl/v1';

test.each([
  'https://api.example.nl/v1',
  'https://api.example.nl/v1/',
  'https://api.example.nl/v1/monumenten/1',
  'https://api.example.nl/v1/a%2Eb',
  'https://api.example.nl/v1/items;v=2',
  'https://api.example.nl/v1/monumenten?x=../../admin',
])('%s stays under the base URL', (url) => {
  expect(isUnderBase(BASE, url)).toBe(true);
});

test.each([
  ['a dot segment', 'https://api.example.nl/v1/../admin'],
  ['an encoded dot segment', 'https://api.example.nl/v1/%2e%2e/admin'],
  ['a double-encoded dot segment', 'https://api.example.nl/v1/%252e%252e/admin'],
  ['an encoded slash', 'https://api.example.nl/v1/x%2f..%2fadmin'],
  ['an encoded backslash', 'https://api.example.nl/v1/x%5c..%5cadmin'],
  ['a servlet path parameter on a dot segment (Tomcat, Jetty)', 'https://api.example.nl/v1/..;/admin/users'],
  ['a path parameter with a value', 'https://api.example.nl/v1/..;x=1/admin'],
  ['an encoded dot segment with a parameter', 'https://api.example.nl/v1/%2e%2e;/admin'],
  ['a single dot with a parameter', 'https://api.example.nl/v1/.;/x'],
  ['another path', 'https://api.example.nl/v10/x'],
  ['another port', 'https://api.example.nl:8443/v1/x'],
  ['another scheme', 'http://api.example.nl/v1/x'],
  ['user information', 'https://user@api.example.nl/v1/x'],
  ['no URL at all', 'not a url'],
])('%s leaves the base URL', (_what, url) => {
  expect(isUnderBase(BASE, url)).toBe(false);
});
