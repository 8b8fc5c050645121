import { mapStrings, printable, redactText, secretForms } from '../live/redaction.js';

test('a bearer token is redacted as given, without its scheme, percent-encoded and JSON-escaped', () => {
  const forms = secretForms(['Bearer a"b\\c d']);
  const echoed = ['Bearer a"b\\c d', 'token=a%22b%5Cc%20d', 'token=a%22b%5Cc+d', 'token=a%22b%5cc%20d', '{"t":"a\\"b\\\\c d"}', 'a"b\\c d'].join(' | ');
  expect(redactText(echoed, forms)).toBe('[REDACTED] | token=[REDACTED] | token=[REDACTED] | token=[REDACTED] | {"t":"[REDACTED]"} | [REDACTED]');
});

test('Basic credentials are redacted decoded too, password alone included', () => {
  const forms = secretForms([`Basic ${Buffer.from('user:pa55word').toString('base64')}`]);
  expect(redactText('wrong password pa55word for user:pa55word', forms)).toBe('wrong password [REDACTED] for [REDACTED]');
});

test('a secret of any length is redacted; empty values are not secrets', () => {
  expect(redactText('key=Zq9', secretForms(['Zq9', '', '  ']))).toBe('key=[REDACTED]');
});

test('printable turns control, C1 and bidi characters into visible escapes', () => {
  expect(printable('a\u001b[2Jb\u0007\u009b\u202e\n')).toBe('a\\x1b[2Jb\\x07\\x9b\\u202e\\x0a');
  expect(printable('gewoon tekst: é ü ✓')).toBe('gewoon tekst: é ü ✓');
});

test('mapStrings reaches every string, keys included', () => {
  expect(mapStrings({ a: ['x', 1, { b: 'y' }], x: null }, (text) => text.toUpperCase())).toEqual({ A: ['X', 1, { B: 'Y' }], X: null });
});

test('a secret in hex, reversed, HTML-escaped or as character references is redacted', async () => {
  const { redactText, secretForms } = await import('../live/redaction.js');
  const secret = `S3cr&t<Tok>"en'42xyz`;
  const forms = secretForms([`Bearer ${secret}`]);
  const hex = Buffer.from(secret).toString('hex');
  const escaped = secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  const references = [...secret].map((character) => `&#${character.codePointAt(0)};`).join('');
  for (const echoed of [hex, hex.toUpperCase(), [...secret].reverse().join(''), escaped, references]) {
    expect(redactText(`before ${echoed} after`, forms)).toBe('before [REDACTED] after');
  }
});
