#!/usr/bin/env node
// Writes signature vectors made by the providers' own SDKs (sdk-<provider>.json beside this script), in the format of
// ../generate.py's files; ProviderVectorsTests runs them with the rest. The SDKs sign; nothing here computes a MAC
// itself, so these vectors check the buffer against the senders' code, where generate.py checks it against the
// documented scheme. Each SDK's own verifier is asked to accept what it signed before a vector is written.
//
// Re-make (CI never runs npm; the JSON is committed):
//   cd src/test/resources/signature-vectors/sdk && npm ci && node make.js
'use strict';

const fs = require('fs');
const path = require('path');
const assert = require('assert');

const Stripe = require('stripe');
const twilio = require('twilio');
const standardwebhooks = require('standardwebhooks');
const { Webhook: SvixWebhook } = require('svix');

const NOW = 1767225600; // 2026-01-01T00:00:00Z, the receive time of every vector (as in generate.py)
const NOW_MS = NOW * 1000;
const BODY = '{"id":"evt_1NG8Du2eZvKYlo2C","event_id":"Ev0PV52PSDGR","type":"invoice.paid","amount":4200}';
const TAMPERED = BODY.replace('4200', '4201');
const JSON_CT = { 'Content-Type': 'application/json' };

function vec(provider, name, description, secrets, headers, body, expected, extra = {}) {
  const v = { name, description, provider, secrets, receivedAt: extra.receivedAt ?? NOW_MS, headers };
  if (extra.publicUrl) {
    v.publicUrl = extra.publicUrl;
  }
  v.bodyUtf8 = body;
  v.expected = expected;
  if (expected === 'NONE') {
    v.dedupeId = extra.dedupe ?? null;
  }
  return v;
}

function write(file, vectors, sdk) {
  const stem = path.basename(file, '.json');
  for (const v of vectors) {
    v.name = stem + '-' + v.name;
    v.description += ' Signed by ' + sdk + '.';
  }
  fs.writeFileSync(path.join(__dirname, file), JSON.stringify(vectors, null, 2) + '\n');
}

function version(pkg) {
  return pkg + ' ' + require(path.join(__dirname, 'node_modules', pkg, 'package.json')).version;
}

function stripe() {
  const s = 'whsec_stripe_sdk_current_4e5f6a';
  const o = 'whsec_stripe_sdk_previous_7b8c9d';
  const client = new Stripe('sk_test_not_used');
  const header = (secret, timestamp, payload = BODY) =>
    client.webhooks.generateTestHeaderString({ payload, secret, timestamp });
  assert.ok(client.webhooks.constructEvent(BODY, header(s, Math.floor(Date.now() / 1000)), s));
  const h = (secret, ts = NOW) => ({ ...JSON_CT, 'Stripe-Signature': header(secret, ts) });
  const id = 'evt_1NG8Du2eZvKYlo2C';
  write('sdk-stripe.json', [
    vec('stripe', 'valid', 'generateTestHeaderString at the receive time.', [s, o], h(s), BODY, 'NONE', { dedupe: id }),
    vec('stripe', 'valid-previous-secret', 'Signed with the previous secret.', [s, o], h(o), BODY, 'NONE', { dedupe: id }),
    vec('stripe', 'tampered-body', 'The body changed after signing.', [s], h(s), TAMPERED, 'BAD_SIGNATURE'),
    vec('stripe', 'wrong-secret', 'Signed with a secret the tenant does not have.', [s], h(o), BODY, 'BAD_SIGNATURE'),
    vec('stripe', 'stale-timestamp', 'Signed one hour before the receive time.', [s], h(s, NOW - 3600), BODY,
      'STALE_TIMESTAMP'),
  ], version('stripe') + ' (stripe.webhooks.generateTestHeaderString)');
}

async function github() {
  const { sign, verify } = await import('@octokit/webhooks-methods');
  const s = 'gh-sdk-secret-current';
  const o = 'gh-sdk-secret-previous';
  const delivery = '9a1c0d2e-3f4b-11f0-8c5d-6e7f8a9b0c1d';
  assert.ok(await verify(s, BODY, await sign(s, BODY)));
  const h = async (secret) => ({ ...JSON_CT, 'X-Hub-Signature-256': await sign(secret, BODY),
    'X-GitHub-Delivery': delivery });
  write('sdk-github.json', [
    vec('github', 'valid', 'sign() (sha256).', [s, o], await h(s), BODY, 'NONE', { dedupe: delivery }),
    vec('github', 'valid-previous-secret', 'Signed with the previous secret.', [s, o], await h(o), BODY, 'NONE',
      { dedupe: delivery }),
    vec('github', 'tampered-body', 'The body changed after signing.', [s], await h(s), TAMPERED, 'BAD_SIGNATURE'),
    vec('github', 'wrong-secret', 'Signed with a secret the tenant does not have.', [s], await h(o), BODY,
      'BAD_SIGNATURE'),
    vec('github', 'docs-example', 'GitHub\'s published example input (secret "It\'s a Secret to Everybody",'
      + ' payload "Hello, World!").', ['It\'s a Secret to Everybody'], { ...JSON_CT, 'X-Hub-Signature-256':
      await sign('It\'s a Secret to Everybody', 'Hello, World!'), 'X-GitHub-Delivery': delivery }, 'Hello, World!',
    'NONE', { dedupe: delivery }),
  ], version('@octokit/webhooks-methods') + ' (sign)');
}

/** Standard Webhooks' and Svix's Webhook.sign; prefix is 'webhook' or 'svix' (the header names). */
function standard(provider, file, Webhook, prefix, sdk) {
  const s = 'whsec_' + Buffer.from(provider + '-sdk-current-key-32-bytes!').toString('base64');
  const o = 'whsec_' + Buffer.from(provider + '-sdk-previous-key-32-bytes').toString('base64');
  const id = 'msg_2sdk' + provider.replace(/-/g, '') + 'Q9r8GKYqrTwjU';
  const signature = (secret, ts) => new Webhook(secret).sign(id, new Date(ts * 1000), BODY);
  const headers = (secret, ts = NOW) => ({ ...JSON_CT, [prefix + '-id']: id, [prefix + '-timestamp']: String(ts),
    [prefix + '-signature']: signature(secret, ts) });
  const nowSeconds = Math.floor(Date.now() / 1000);
  // verify() throws on a bad signature (standardwebhooks returns nothing when it passes).
  new Webhook(s).verify(BODY, headers(s, nowSeconds));
  write(file, [
    vec(provider, 'valid', 'Webhook.sign at the receive time.', [s, o], headers(s), BODY, 'NONE', { dedupe: id }),
    vec(provider, 'valid-previous-secret', 'Signed with the previous secret.', [s, o], headers(o), BODY, 'NONE',
      { dedupe: id }),
    vec(provider, 'tampered-body', 'The body changed after signing.', [s], headers(s), TAMPERED, 'BAD_SIGNATURE'),
    vec(provider, 'wrong-secret', 'Signed with a secret the tenant does not have.', [s], headers(o), BODY,
      'BAD_SIGNATURE'),
    vec(provider, 'stale-timestamp', 'Signed one hour before the receive time.', [s], headers(s, NOW - 3600), BODY,
      'STALE_TIMESTAMP'),
    vec(provider, 'rotation-header', 'Both secrets\' signatures in one header, space-separated, as a sender does'
      + ' while rotating; the tenant has only the new secret.', [s], { ...headers(s),
      [prefix + '-signature']: signature(o, NOW) + ' ' + signature(s, NOW) }, BODY, 'NONE', { dedupe: id }),
  ], sdk + ' (Webhook.sign)');
}

function twilioVectors() {
  const s = 'twilio-sdk-auth-token-current';
  const o = 'twilio-sdk-auth-token-previous';
  const url = 'https://hooks.example.com/webhook/sms?tenant=acme';
  const params = { AccountSid: 'AC0123456789abcdef0123456789abcdef', Body: 'Hello, 4200 times',
    From: '+14158675310', MessageSid: 'SM0123456789abcdef0123456789abcdef', To: '+18005551212' };
  const body = new URLSearchParams(params).toString();
  const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
  const h = (token) => ({ ...form, 'X-Twilio-Signature': twilio.getExpectedTwilioSignature(token, url, params) });
  assert.ok(twilio.validateRequest(s, h(s)['X-Twilio-Signature'], url, params));
  const tampered = new URLSearchParams({ ...params, Body: 'Hello, 4201 times' }).toString();
  write('sdk-twilio.json', [
    vec('twilio', 'valid', 'getExpectedTwilioSignature over the public URL and the form parameters.', [s, o], h(s),
      body, 'NONE', { publicUrl: url }),
    vec('twilio', 'valid-previous-secret', 'Signed with the previous auth token.', [s, o], h(o), body, 'NONE',
      { publicUrl: url }),
    vec('twilio', 'tampered-body', 'A parameter changed after signing.', [s], h(s), tampered, 'BAD_SIGNATURE',
      { publicUrl: url }),
    vec('twilio', 'wrong-secret', 'Signed with an auth token the tenant does not have.', [s], h(o), body,
      'BAD_SIGNATURE', { publicUrl: url }),
    vec('twilio', 'docs-example', 'Twilio\'s security docs example input (auth token 12345, that URL and'
      + ' parameters).', ['12345'], { ...form, 'X-Twilio-Signature': twilio.getExpectedTwilioSignature('12345',
      'https://mycompany.com/myapp.php?foo=1&bar=2', { CallSid: 'CA1234567890ABCDE', Caller: '+14158675310',
        Digits: '1234', From: '+14158675310', To: '+18005551212' }) },
    'CallSid=CA1234567890ABCDE&Caller=%2B14158675310&Digits=1234&From=%2B14158675310&To=%2B18005551212', 'NONE',
    { publicUrl: 'https://mycompany.com/myapp.php?foo=1&bar=2' }),
  ], version('twilio') + ' (getExpectedTwilioSignature)');
}

async function main() {
  stripe();
  await github();
  standard('standard-webhooks', 'sdk-standard-webhooks.json', standardwebhooks.Webhook, 'webhook',
    version('standardwebhooks'));
  standard('standard-webhooks', 'sdk-svix.json', SvixWebhook, 'svix', version('svix'));
  standard('clerk', 'sdk-clerk.json', SvixWebhook, 'svix', version('svix'));
  standard('resend', 'sdk-resend.json', SvixWebhook, 'svix', version('svix'));
  twilioVectors();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
