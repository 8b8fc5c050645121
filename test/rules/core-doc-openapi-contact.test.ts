import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/core/doc-openapi-contact';

test('missing contact is a warning at info', async () => {
  const doc = conformantDocument();
  delete doc.info.contact;
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'info', 'Contact details are missing. Add info.contact with the name, url and email of the team.'],
  ]);
});

test('each missing or wrong field is named', async () => {
  const doc = conformantDocument();
  doc.info.contact = { url: 'www.example.nl', email: 'team at example.nl' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'info.contact', 'Contact name is missing. Add info.contact.name with the name of the team.'],
    ['warn', 'info.contact.url', 'Contact url is not an absolute http(s) URL: www.example.nl. Give info.contact.url an absolute https URL.'],
    ['warn', 'info.contact.email', 'Contact email is not a valid address: team at example.nl. Give info.contact.email the mailbox of the team.'],
  ]);
});

test.each(['info@example.nl', 'Contact@gemeente.nl', 'noreply@example.nl'])('generic mailbox %s is reported', async (email) => {
  const doc = conformantDocument();
  doc.info.contact.email = email;
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'info.contact.email', `Contact email is a generic organisation-wide mailbox: ${email}. Give the mailbox of the team that runs the API.`],
  ]);
});

test('a complete contact with a team mailbox passes', async () => {
  const doc = conformantDocument();
  doc.info.contact = { name: 'Team Basisregistraties', url: 'http://example.nl/team', email: 'basisregistraties@example.nl' };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test.each(['mailto:team@example.nl', 'a..b@example.nl', 'team@-example.nl', 'team@example'])('%s is not a valid address', async (email) => {
  const doc = conformantDocument();
  doc.info.contact.email = email;
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'info.contact.email', `Contact email is not a valid address: ${email}. Give info.contact.email the mailbox of the team.`],
  ]);
});

test.each(['info+api@example.nl', 'no_reply@example.nl', 'support@example.nl'])('%s is still a generic mailbox', async (email) => {
  const doc = conformantDocument();
  doc.info.contact.email = email;
  expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual(['info.contact.email']);
});

test.each(['https:///pad', 'https:example.nl', 'https://example.nl/ons team'])('%s is no absolute URL', async (url) => {
  const doc = conformantDocument();
  doc.info.contact.url = url;
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'info.contact.url', `Contact url is not an absolute http(s) URL: ${url}. Give info.contact.url an absolute https URL.`],
  ]);
});

test('a missing info and a contact that is not an object are reported', async () => {
  const doc = conformantDocument();
  doc.info.contact = 'team@example.nl';
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'info.contact', 'Contact details are not an object: team@example.nl. Give info.contact as an object with name, url and email.'],
  ]);
  delete doc.info;
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', '', 'Contact details are missing. Add info.contact with the name, url and email of the team.'],
  ]);
});

test('an address at an internationalised domain is valid', async () => {
  const doc = conformantDocument();
  doc.info.contact.email = 'team@bücher.de';
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test.each(['team@ex%61mple.nl', 'team@exam\u00adple.nl', 'team@example\u3002nl'])('%s is not a valid address: the URL parser would repair it, a mail server would not', async (email) => {
  const doc = conformantDocument();
  doc.info.contact.email = email;
  expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual(['info.contact.email']);
});
