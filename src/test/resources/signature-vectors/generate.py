#!/usr/bin/env python3
"""Writes the provider golden vectors (one JSON file per provider) beside this script.

The signatures are computed here with Python's hmac/hashlib, independently of the Java code under test; the
public-key ones (SendGrid's ECDSA P-256, Ed25519 for Discord and Standard Webhooks' v1a) with the `cryptography`
package (python3-cryptography), deterministically (RFC 6979 ECDSA, Ed25519), so a re-run writes the same files.
Published examples (GitHub, Slack, Standard Webhooks, SendGrid) are copied verbatim and cited in their descriptions. Re-run after
changing a case: python3 generate.py
"""
import base64
import datetime
import hashlib
import hmac
import json
import os
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
NOW = 1767225600  # 2026-01-01T00:00:00Z: the receive time of every generated vector (receivedAt, epoch ms)
NOW_MS = NOW * 1000


def mac(alg, key, content):
    return hmac.new(key if isinstance(key, bytes) else key.encode(), content.encode() if isinstance(content, str)
                    else content, alg).digest()


def hexs(d):
    return d.hex()


def b64(d):
    return base64.b64encode(d).decode()


def vec(name, description, provider, secrets, headers, body, expected, received_at=NOW_MS, dedupe=None,
        public_url=None, handshake=None):
    v = {"name": name, "description": description, "provider": provider, "secrets": secrets,
         "receivedAt": received_at, "headers": headers}
    if public_url:
        v["publicUrl"] = public_url
    if isinstance(body, bytes):
        v["bodyBase64"] = b64(body)
    else:
        v["bodyUtf8"] = body
    v["expected"] = expected
    if expected == "NONE":
        v["dedupeId"] = dedupe
    if handshake:
        v["handshake"] = handshake
    return v


def common(provider, secret, other, sign, body, dedupe, header, ts_cases=True, extra=None, public_url=None):
    """The cases every provider gets. sign(secret, body, ts) -> headers."""
    json_ct = {"Content-Type": "application/json"}
    out = []

    def h(secret_, body_, ts=NOW):
        d = dict(json_ct)
        d.update(sign(secret_, body_, ts))
        return d

    tampered = body.replace("4200", "4201") if "4200" in body else body + " "
    out.append(vec("valid", "Signed with the current secret at the receive time.", provider, [secret, other],
                   h(secret, body), body, "NONE", dedupe=dedupe, public_url=public_url))
    out.append(vec("valid-previous-secret", "Signed with the previous secret: rotation accepts every active secret.",
                   provider, [secret, other], h(other, body), body, "NONE", dedupe=dedupe, public_url=public_url))
    out.append(vec("tampered-body", "Valid signature of the original body, sent with one digit changed.", provider,
                   [secret], h(secret, body), tampered, "BAD_SIGNATURE", public_url=public_url))
    out.append(vec("wrong-secret", "Signed with a secret the tenant does not have.", provider, [secret],
                   h("not-the-tenant-secret" if provider not in WHSEC_PROVIDERS else "whsec_" + b64(b"x" * 24), body),
                   body, "BAD_SIGNATURE", public_url=public_url))
    out.append(vec("missing-header", "No " + header + " header.", provider, [secret], dict(json_ct), body,
                   "MISSING_SIGNATURE", public_url=public_url))
    if ts_cases:
        out.append(vec("stale-timestamp", "Correctly signed, but the signed timestamp is one hour before the receive"
                       " time.", provider, [secret], h(secret, body, NOW - 3600), body, "STALE_TIMESTAMP",
                       public_url=public_url))
        out.append(vec("future-timestamp", "Correctly signed, but the signed timestamp is one hour after the receive"
                       " time (the window is checked both ways).", provider, [secret], h(secret, body, NOW + 3600),
                       body, "STALE_TIMESTAMP", public_url=public_url))
        out.append(vec("replayed-later", "The valid request replayed ten minutes later: stale.", provider, [secret],
                       h(secret, body), body, "STALE_TIMESTAMP", received_at=NOW_MS + 600_000,
                       public_url=public_url))
    for i, (mh, desc) in enumerate(extra or []):
        d = dict(json_ct)
        d.update(mh)
        out.append(vec("malformed-%d" % (i + 1), desc, provider, [secret], d, body, "MALFORMED_SIGNATURE",
                       public_url=public_url))
    return out


WHSEC_PROVIDERS = ("standard-webhooks", "clerk", "resend")


def write(provider, vectors):
    with open(os.path.join(HERE, provider + ".json"), "w") as f:
        json.dump(vectors, f, indent=2, ensure_ascii=False)
        f.write("\n")


BODY = '{"id":"evt_1NG8Du2eZvKYlo2C","event_id":"Ev0PV52PSDGR","type":"invoice.paid","amount":4200}'


def stripe():
    s, o = "whsec_stripe_current_9f8e7d", "whsec_stripe_previous_1a2b3c"
    sign = lambda k, b, ts: {"Stripe-Signature": "t=%d,v1=%s,v0=%s" % (ts, hexs(mac(hashlib.sha256, k, "%d.%s" % (ts, b))), "0" * 64)}
    v = common("stripe", s, o, sign, BODY, "evt_1NG8Du2eZvKYlo2C", "Stripe-Signature", extra=[
        ({"Stripe-Signature": "v1=" + hexs(mac(hashlib.sha256, s, "%d.%s" % (NOW, BODY)))}, "No t= parameter."),
        ({"Stripe-Signature": "t=%d" % NOW}, "No v1 signature."),
        ({"Stripe-Signature": "t=abc,v1=" + hexs(mac(hashlib.sha256, s, "abc." + BODY))}, "Non-numeric timestamp."),
        ({"Stripe-Signature": "t=%d,,v1=%s" % (NOW, hexs(mac(hashlib.sha256, s, "%d.%s" % (NOW, BODY))))}, "Repeated comma."),
        ({"Stripe-Signature": "t=%d,v1=zz%s" % (NOW, "0" * 62)}, "v1 is not hex."),
    ])
    good = hexs(mac(hashlib.sha256, s, "%d.%s" % (NOW, BODY)))
    v.append(vec("several-v1-one-matches", "Two v1 signatures (Stripe sends one per active secret); the second matches.",
                 "stripe", [s], {"Content-Type": "application/json",
                                 "Stripe-Signature": "t=%d,v1=%s,v1=%s" % (NOW, "ab" * 32, good)}, BODY, "NONE",
                 dedupe="evt_1NG8Du2eZvKYlo2C"))
    write("stripe", v)


def github():
    s, o = "gh-webhook-secret-current", "gh-webhook-secret-previous"
    sign = lambda k, b, ts: {"X-Hub-Signature-256": "sha256=" + hexs(mac(hashlib.sha256, k, b)),
                             "X-GitHub-Delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958"}
    v = common("github", s, o, sign, BODY, "72d3162e-cc78-11e3-81ab-4c9367dc0958", "X-Hub-Signature-256", ts_cases=False,
               extra=[({"X-Hub-Signature-256": hexs(mac(hashlib.sha256, s, BODY))}, "No sha256= prefix."),
                      ({"X-Hub-Signature-256": "sha1=" + hexs(mac(hashlib.sha1, s, BODY))}, "sha1= instead of sha256=."),
                      ({"X-Hub-Signature-256": "sha256=" + hexs(mac(hashlib.sha256, s, BODY))[:-2]}, "Truncated hex.")])
    v.append(vec("github-docs-example", "GitHub's published example: secret \"It's a Secret to Everybody\", payload"
                 " \"Hello, World!\" (https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries"
                 "#testing-the-webhook-payload-validation).", "github", ["It's a Secret to Everybody"],
                 {"Content-Type": "application/json", "X-Hub-Signature-256":
                  "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
                  "X-GitHub-Delivery": "docs-example-delivery"}, "Hello, World!", "NONE",
                 dedupe="docs-example-delivery"))
    write("github", v)


def shopify():
    s, o = "shpss_current_0123456789abcdef", "shpss_previous_fedcba9876543210"
    sign = lambda k, b, ts: {"X-Shopify-Hmac-Sha256": b64(mac(hashlib.sha256, k, b)),
                             "X-Shopify-Webhook-Id": "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043"}
    write("shopify", common("shopify", s, o, sign, BODY, "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043", "X-Shopify-Hmac-Sha256",
                            ts_cases=False, extra=[
        ({"X-Shopify-Hmac-Sha256": hexs(mac(hashlib.sha256, s, BODY))}, "Hex instead of base64."),
        ({"X-Shopify-Hmac-Sha256": "!!" + b64(mac(hashlib.sha256, s, BODY))[2:]}, "Not base64."),
        ({"X-Shopify-Hmac-Sha256": b64(mac(hashlib.sha1, s, BODY))}, "Base64 of 20 bytes: wrong length.")]))


def slack():
    s, o = "8f742231b10e8888abcd99yyyzzz85a5", "slack-signing-secret-previous"
    sign = lambda k, b, ts: {"X-Slack-Request-Timestamp": str(ts),
                             "X-Slack-Signature": "v0=" + hexs(mac(hashlib.sha256, k, "v0:%d:%s" % (ts, b)))}
    v = common("slack", s, o, sign, BODY, "Ev0PV52PSDGR", "X-Slack-Signature", extra=[
        ({"X-Slack-Request-Timestamp": str(NOW), "X-Slack-Signature": hexs(mac(hashlib.sha256, s, "v0:%d:%s" % (NOW, BODY)))}, "No v0= prefix."),
        ({"X-Slack-Signature": "v0=" + hexs(mac(hashlib.sha256, s, "v0:%d:%s" % (NOW, BODY)))}, "No X-Slack-Request-Timestamp."),
        ({"X-Slack-Request-Timestamp": "-5", "X-Slack-Signature": "v0=" + hexs(mac(hashlib.sha256, s, "v0:-5:" + BODY))}, "Negative timestamp."),
        ({"X-Slack-Request-Timestamp": "１７６７２２５６００", "X-Slack-Signature": "v0=" + "0" * 64}, "Full-width digits in the timestamp.")])
    docs_body = ("token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&"
                 "channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&"
                 "response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZ"
                 "RskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c")
    v.append(vec("slack-docs-example", "Slack's published example (https://api.slack.com/authentication/verifying-"
                 "requests-from-slack): signing secret 8f742231b10e8888abcd99yyyzzz85a5, timestamp 1531420618, a slash"
                 " command body; received 10 s after it was signed. It has no event_id: the body hash is the dedupe key.",
                 "slack", [s], {"Content-Type": "application/x-www-form-urlencoded",
                                "X-Slack-Request-Timestamp": "1531420618", "X-Slack-Signature":
                                "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503"},
                 docs_body, "NONE", received_at=1531420628000, dedupe=None))
    hs = '{"token":"Jhj5dZrVaK7ZwHHjRyZWjbDl","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","type":"url_verification"}'
    v.append(vec("url-verification-handshake", "Slack's url_verification (https://api.slack.com/events/url_verification):"
                 " verified, then answered with its challenge and not buffered.", "slack", [s],
                 {"Content-Type": "application/json"} | sign(s, hs, NOW), hs, "NONE", dedupe=None,
                 handshake={"challenge": "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"}))
    v.append(vec("url-verification-unsigned", "A url_verification with a bad signature is refused, not answered.",
                 "slack", [s], {"Content-Type": "application/json"} | sign("wrong-secret", hs, NOW), hs,
                 "BAD_SIGNATURE"))
    write("slack", v)


def standard_webhooks():
    s, o = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_" + b64(b"previous-standard-webhooks-key!!")
    key = lambda k: base64.b64decode(k[len("whsec_"):])
    msg_id = "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W"

    def sign(k, b, ts):
        return {"webhook-id": msg_id, "webhook-timestamp": str(ts),
                "webhook-signature": "v1," + b64(mac(hashlib.sha256, key(k), "%s.%d.%s" % (msg_id, ts, b)))}
    good = sign(s, BODY, NOW)["webhook-signature"]
    v = common("standard-webhooks", s, o, sign, BODY, msg_id, "webhook-signature", extra=[
        ({"webhook-id": msg_id, "webhook-timestamp": str(NOW), "webhook-signature": good[3:]}, "No v1, prefix."),
        ({"webhook-timestamp": str(NOW), "webhook-signature": good}, "No webhook-id (it is signed)."),
        ({"webhook-id": msg_id, "webhook-signature": good}, "No webhook-timestamp."),
        ({"webhook-id": msg_id, "webhook-timestamp": str(NOW), "webhook-signature": "v1,not*base64"}, "v1 entry is not base64."),
        ({"webhook-id": msg_id, "webhook-timestamp": str(NOW), "webhook-signature": "v2," + good[3:]}, "Only an unknown version.")])
    v.append(vec("several-signatures", "Space-separated entries: an asymmetric v1a, a stale v1 and the matching v1.",
                 "standard-webhooks", [s], {"Content-Type": "application/json", "webhook-id": msg_id,
                                            "webhook-timestamp": str(NOW),
                                            "webhook-signature": "v1a,AAAA v1," + b64(b"\0" * 32) + "  " + good},
                 BODY, "NONE", dedupe=msg_id))
    svix = {"svix-id": msg_id, "svix-timestamp": str(NOW), "svix-signature": good}
    v.append(vec("svix-header-names", "The same request with Svix's svix-* header names.", "standard-webhooks", [s],
                 {"Content-Type": "application/json"} | svix, BODY, "NONE", dedupe=msg_id))
    spec_body = '{"test": 2432232314}'
    v.append(vec("spec-example", "The Standard Webhooks reference libraries' shared test vector (secret"
                 " whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw, id msg_p5jXN8AQM9LWM0D4loKWxJek, timestamp 1614265330,"
                 " body {\"test\": 2432232314}; https://github.com/standard-webhooks/standard-webhooks, libraries/);"
                 " received 5 s later.", "standard-webhooks", [s],
                 {"Content-Type": "application/json", "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
                  "webhook-timestamp": "1614265330",
                  "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="},
                 spec_body, "NONE", received_at=1614265335000, dedupe="msg_p5jXN8AQM9LWM0D4loKWxJek"))
    write("standard-webhooks", v)


def paddle():
    s, o = "pdl_ntfset_current_secret_key", "pdl_ntfset_previous_secret_key"
    sign = lambda k, b, ts: {"Paddle-Signature": "ts=%d;h1=%s" % (ts, hexs(mac(hashlib.sha256, k, "%d:%s" % (ts, b))))}
    v = common("paddle", s, o, sign, BODY, "Ev0PV52PSDGR", "Paddle-Signature", extra=[
        ({"Paddle-Signature": "h1=" + hexs(mac(hashlib.sha256, s, "%d:%s" % (NOW, BODY)))}, "No ts."),
        ({"Paddle-Signature": "ts=%d;ts=%d;h1=%s" % (NOW, NOW, hexs(mac(hashlib.sha256, s, "%d:%s" % (NOW, BODY))))}, "Two ts parameters."),
        ({"Paddle-Signature": "ts=%d,h1=%s" % (NOW, hexs(mac(hashlib.sha256, s, "%d:%s" % (NOW, BODY))))}, "Comma instead of semicolon.")])
    v.append(vec("within-default-tolerance", "Signed 4 s before the receive time: inside Paddle's 5 s.", "paddle", [s],
                 {"Content-Type": "application/json"} | sign(s, BODY, NOW - 4), BODY, "NONE", dedupe="Ev0PV52PSDGR"))
    v.append(vec("outside-default-tolerance", "Signed 6 s before the receive time: outside Paddle's 5 s.", "paddle",
                 [s], {"Content-Type": "application/json"} | sign(s, BODY, NOW - 6), BODY, "STALE_TIMESTAMP"))
    write("paddle", v)


def square():
    s, o = "sq0wss-current-signature-key", "sq0wss-previous-signature-key"
    url = "https://hooks.example.com/webhook/square-shop?source=square"
    sign = lambda k, b, ts: {"x-square-hmacsha256-signature": b64(mac(hashlib.sha256, k, url + b))}
    v = common("square", s, o, sign, BODY, "Ev0PV52PSDGR", "x-square-hmacsha256-signature", ts_cases=False,
               public_url=url, extra=[({"x-square-hmacsha256-signature": hexs(mac(hashlib.sha256, s, url + BODY))}, "Hex, not base64.")])
    v.append(vec("other-url", "Signed over a different notification URL (the one the request arrived at, behind a"
                 " proxy): refused.", "square", [s], {"Content-Type": "application/json",
                 "x-square-hmacsha256-signature": b64(mac(hashlib.sha256, s, "http://10.0.0.5:8080/webhook/square-shop" + BODY))},
                 BODY, "BAD_SIGNATURE", public_url=url))
    write("square", v)


def linear():
    s, o = "lin_wh_current_secret", "lin_wh_previous_secret"

    def body_at(ts):
        return '{"action":"create","type":"Issue","data":{"id":"issue-1"},"webhookTimestamp":%d}' % (ts * 1000)

    def sign(k, b, ts):
        return {"Linear-Signature": hexs(mac(hashlib.sha256, k, b)), "Linear-Delivery": "234d1a4e-b617-4388-90fe-adc3633d6b72"}
    json_ct = {"Content-Type": "application/json"}
    b = body_at(NOW)
    v = [vec("valid", "Signed body whose webhookTimestamp (ms) is the receive time.", "linear", [s, o],
             json_ct | sign(s, b, NOW), b, "NONE", dedupe="234d1a4e-b617-4388-90fe-adc3633d6b72"),
         vec("valid-previous-secret", "Signed with the previous secret.", "linear", [s, o], json_ct | sign(o, b, NOW), b,
             "NONE", dedupe="234d1a4e-b617-4388-90fe-adc3633d6b72"),
         vec("tampered-body", "Signature of the body, sent with another issue id.", "linear", [s],
             json_ct | sign(s, b, NOW), b.replace("issue-1", "issue-2"), "BAD_SIGNATURE"),
         vec("wrong-secret", "Signed with a secret the tenant does not have.", "linear", [s],
             json_ct | sign("not-the-tenant-secret", b, NOW), b, "BAD_SIGNATURE"),
         vec("missing-header", "No Linear-Signature.", "linear", [s], dict(json_ct), b, "MISSING_SIGNATURE"),
         vec("stale-timestamp", "Correctly signed, webhookTimestamp two minutes before the receive time (Linear: within"
             " a minute).", "linear", [s], json_ct | sign(s, body_at(NOW - 120), NOW), body_at(NOW - 120), "STALE_TIMESTAMP"),
         vec("future-timestamp", "Correctly signed, webhookTimestamp two minutes after the receive time.", "linear", [s],
             json_ct | sign(s, body_at(NOW + 120), NOW), body_at(NOW + 120), "STALE_TIMESTAMP"),
         vec("malformed-1", "Signature with a sha256= prefix.", "linear", [s],
             json_ct | {"Linear-Signature": "sha256=" + hexs(mac(hashlib.sha256, s, b))}, b, "MALFORMED_SIGNATURE"),
         vec("malformed-2", "Signed body without webhookTimestamp.", "linear", [s],
             json_ct | sign(s, '{"action":"create"}', NOW), '{"action":"create"}', "MALFORMED_SIGNATURE"),
         vec("malformed-3", "webhookTimestamp is a string.", "linear", [s],
             json_ct | sign(s, '{"webhookTimestamp":"soon"}', NOW), '{"webhookTimestamp":"soon"}', "MALFORMED_SIGNATURE")]
    write("linear", v)


def zoom():
    s, o = "zoom_secret_token_current", "zoom_secret_token_previous"
    sign = lambda k, b, ts: {"x-zm-request-timestamp": str(ts),
                             "x-zm-signature": "v0=" + hexs(mac(hashlib.sha256, k, "v0:%d:%s" % (ts, b)))}
    body = '{"event":"meeting.started","event_ts":1767225600000,"payload":{"account_id":"abc","object":{"id":"85"}}}'
    v = common("zoom", s, o, sign, body, None, "x-zm-signature", extra=[
        ({"x-zm-request-timestamp": str(NOW), "x-zm-signature": "v1=" + "0" * 64}, "v1= instead of v0=."),
        ({"x-zm-signature": "v0=" + hexs(mac(hashlib.sha256, s, "v0:%d:%s" % (NOW, body)))}, "No x-zm-request-timestamp.")])
    hs = '{"payload":{"plainToken":"qgg8vlvZRS6UYooatFL8Aw"},"event_ts":1767225600000,"event":"endpoint.url_validation"}'
    v.append(vec("url-validation-handshake", "Zoom's endpoint.url_validation (https://developers.zoom.us/docs/api/"
                 "webhooks/#validate-your-webhook-endpoint): verified, then answered with plainToken and its HMAC"
                 " (encryptedToken) under the secret token; not buffered.", "zoom", [o, s],
                 {"Content-Type": "application/json"} | sign(s, hs, NOW), hs, "NONE",
                 handshake={"plainToken": "qgg8vlvZRS6UYooatFL8Aw",
                            "encryptedToken": hexs(mac(hashlib.sha256, s, "qgg8vlvZRS6UYooatFL8Aw"))}))
    write("zoom", v)


def intercom():
    s, o = "intercom-client-secret-current", "intercom-client-secret-previous"
    body = '{"type":"notification_event","id":"notif_ccd8a4d0-f965-11e3-a367-c779cae3e1b3","topic":"user.created","amount":4200}'
    sign = lambda k, b, ts: {"X-Hub-Signature": "sha1=" + hexs(mac(hashlib.sha1, k, b))}
    write("intercom", common("intercom", s, o, sign, body, "notif_ccd8a4d0-f965-11e3-a367-c779cae3e1b3",
                             "X-Hub-Signature", ts_cases=False, extra=[
        ({"X-Hub-Signature": "sha256=" + hexs(mac(hashlib.sha256, s, body))}, "sha256= instead of sha1=."),
        ({"X-Hub-Signature": "sha1=" + hexs(mac(hashlib.sha256, s, body))}, "sha1= with a 32-byte MAC.")]))


def gitlab():
    s, o = "gitlab-secret-token-current", "gitlab-secret-token-previous"
    body = '{"object_kind":"push","event_name":"push","amount":4200}'
    sign = lambda k, b, ts: {"X-Gitlab-Token": k, "X-Gitlab-Event-UUID": "13792a34-cac6-4fda-95a8-c58e00a3954e",
                             "Idempotency-Key": "f5e5f430-f57b-4e6e-9fac-d9128cd7232f"}
    v = common("gitlab", s, o, sign, body, "f5e5f430-f57b-4e6e-9fac-d9128cd7232f", "X-Gitlab-Token", ts_cases=False)
    # A token is not a MAC: a changed body still carries the right token. The shared "tampered-body" case is
    # therefore a pass for GitLab's token scheme, which is exactly what the scheme promises (nothing more).
    for x in v:
        if x["name"] == "tampered-body":
            x["description"] = "GitLab's token does not sign the body: a changed body with the right token passes."
            x["expected"] = "NONE"
            x["dedupeId"] = "f5e5f430-f57b-4e6e-9fac-d9128cd7232f"
    v.append(vec("token-prefix", "The token with a trailing character.", "gitlab", [s],
                 {"Content-Type": "application/json", "X-Gitlab-Token": s + "x"}, body, "BAD_SIGNATURE"))
    v.append(vec("uuid-only", "No Idempotency-Key: X-Gitlab-Event-UUID is the dedupe id.", "gitlab", [s],
                 {"Content-Type": "application/json", "X-Gitlab-Token": s,
                  "X-Gitlab-Event-UUID": "13792a34-cac6-4fda-95a8-c58e00a3954e"}, body, "NONE",
                 dedupe="13792a34-cac6-4fda-95a8-c58e00a3954e"))
    write("gitlab", v)


def twilio():
    s, o = "12345", "twilio-previous-auth-token"
    url = "https://mycompany.com/myapp.php?foo=1&bar=2"
    params = [("CallSid", "CA1234567890ABCDE"), ("Caller", "+14158675310"), ("Digits", "1234"),
              ("From", "+14158675310"), ("To", "+18005551212")]
    body = urllib.parse.urlencode(params)

    def sig(k, u, ps):
        return b64(mac(hashlib.sha1, k, u + "".join(n + v for n, v in sorted(ps))))
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    tok = {"I-Twilio-Idempotency-Token": "3f2b1c5e-7d4a-4e8f-9a6b-2c1d0e9f8a7b"}
    v = [vec("valid", "Inputs of Twilio's security docs example (https://www.twilio.com/docs/usage/security#validating"
             "-requests: auth token 12345, that URL and parameters); signature computed independently (Python hmac).",
             "twilio", [s, o], form | tok | {"X-Twilio-Signature": sig(s, url, params)}, body, "NONE",
             dedupe="3f2b1c5e-7d4a-4e8f-9a6b-2c1d0e9f8a7b", public_url=url),
         vec("valid-previous-secret", "Signed with the previous auth token.", "twilio", [s, o],
             form | tok | {"X-Twilio-Signature": sig(o, url, params)}, body, "NONE",
             dedupe="3f2b1c5e-7d4a-4e8f-9a6b-2c1d0e9f8a7b", public_url=url),
         vec("reordered-params", "The same parameters in another order in the body: the signature is over the sorted"
             " parameters, so it still matches.", "twilio", [s],
             form | tok | {"X-Twilio-Signature": sig(s, url, params)}, urllib.parse.urlencode(list(reversed(params))),
             "NONE", dedupe="3f2b1c5e-7d4a-4e8f-9a6b-2c1d0e9f8a7b", public_url=url),
         vec("tampered-body", "Digits changed after signing.", "twilio", [s],
             form | {"X-Twilio-Signature": sig(s, url, params)}, body.replace("1234", "1235"), "BAD_SIGNATURE",
             public_url=url),
         vec("wrong-secret", "Signed with another auth token.", "twilio", [s],
             form | {"X-Twilio-Signature": sig("54321", url, params)}, body, "BAD_SIGNATURE", public_url=url),
         vec("other-url", "Signed over the URL seen behind a proxy, not the configured public URL.", "twilio", [s],
             form | {"X-Twilio-Signature": sig(s, "http://10.0.0.5:8080/webhook/t", params)}, body, "BAD_SIGNATURE",
             public_url=url),
         vec("missing-header", "No X-Twilio-Signature.", "twilio", [s], dict(form), body, "MISSING_SIGNATURE",
             public_url=url),
         vec("malformed-1", "Hex instead of base64.", "twilio", [s],
             form | {"X-Twilio-Signature": hexs(mac(hashlib.sha1, s, url))}, body, "MALFORMED_SIGNATURE", public_url=url),
         vec("json-body", "A JSON body: Twilio signs a bodySHA256 query parameter the configured URL does not carry;"
             " refused (fail closed).", "twilio", [s],
             {"Content-Type": "application/json", "X-Twilio-Signature": sig(s, url, [])}, '{"a":1}', "BAD_SIGNATURE",
             public_url=url)]
    write("twilio", v)


# ---- Common HMAC senders (issue 20) ----

JSON_CT = {"Content-Type": "application/json"}


def body_hmac(provider, header, alg, enc, prefix, body, dedupe=None, id_header=None, id_value=None, extra=None,
              public_url=None, content=lambda b, u: b):
    """A provider that signs the body (or body and URL) with no timestamp: the common cases plus malformed ones."""
    s, o = provider + "-secret-current", provider + "-secret-previous"
    encode = hexs if enc == "hex" else b64

    def sig(k, b):
        return prefix + encode(mac(alg, k, content(b, public_url)))

    def sign(k, b, ts):
        d = {header: sig(k, b)}
        if id_header:
            d[id_header] = id_value
        return d
    good = sig(s, body)
    other_alg = hashlib.sha1 if alg is hashlib.sha256 else hashlib.sha256
    bad = "zz" if enc == "hex" else "!!"
    malformed = [({header: prefix + (bad + encode(mac(alg, s, body))[2:])}, "Not " + enc + " after the prefix."),
                 ({header: prefix + encode(mac(other_alg, s, content(body, public_url)))},
                  "A MAC of the other length (" + ("SHA-1" if other_alg is hashlib.sha1 else "SHA-256") + ").")]
    if prefix:
        malformed.append(({header: good[len(prefix):]}, "No " + prefix + " prefix."))
    else:
        malformed.append(({header: "sha256=" + good}, "An unexpected sha256= prefix."))
    malformed.append(({header: (hexs(mac(alg, s, content(body, public_url))) if enc == "base64"
                                else b64(mac(alg, s, content(body, public_url))))},
                      ("Hex" if enc == "base64" else "Base64") + " instead of " + enc + "."))
    return common(provider, s, o, sign, body, dedupe if (dedupe or not id_header) else id_value, header,
                  ts_cases=False, extra=malformed + (extra or []), public_url=public_url)


def stamped(provider, header, sig_of, ts_header=None, dedupe=None, ms=False, extra=None, public_url=None):
    """A provider that signs a timestamp. sig_of(secret, body, ts) -> the signature header value."""
    s, o = provider + "-secret-current", provider + "-secret-previous"

    def sign(k, b, ts):
        t = ts * 1000 if ms else ts
        d = {header: sig_of(k, b, t)}
        if ts_header:
            d[ts_header] = str(t)
        return d
    return common(provider, s, o, sign, BODY, dedupe, header, extra=extra, public_url=public_url)



def calendly():
    s = "calendly-secret-current"
    sig = lambda k, b, t: "t=%d,v1=%s" % (t, hexs(mac(hashlib.sha256, k, "%d.%s" % (t, b))))
    write("calendly", stamped("calendly", "Calendly-Webhook-Signature", sig, extra=[
        ({"Calendly-Webhook-Signature": "v1=" + hexs(mac(hashlib.sha256, s, "%d.%s" % (NOW, BODY)))}, "No t= parameter."),
        ({"Calendly-Webhook-Signature": "t=%d" % NOW}, "No v1 signature."),
        ({"Calendly-Webhook-Signature": "t=%d;v1=%s" % (NOW, hexs(mac(hashlib.sha256, s, "%d.%s" % (NOW, BODY))))},
         "Semicolon instead of comma.")]))


HUBSPOT_URL = "https://hooks.example.com/webhook/hubspot-portal?source=hubspot"


def hubspot():
    s = "hubspot-secret-current"
    content = lambda b, t: "POST" + HUBSPOT_URL + b + str(t)
    sig = lambda k, b, t: b64(mac(hashlib.sha256, k, content(b, t)))
    v = stamped("hubspot", "X-HubSpot-Signature-v3", sig, ts_header="X-HubSpot-Request-Timestamp", ms=True,
                public_url=HUBSPOT_URL, extra=[
        ({"X-HubSpot-Signature-v3": sig(s, BODY, NOW_MS)}, "No X-HubSpot-Request-Timestamp."),
        ({"X-HubSpot-Signature-v3": hexs(mac(hashlib.sha256, s, content(BODY, NOW_MS))),
          "X-HubSpot-Request-Timestamp": str(NOW_MS)}, "Hex instead of base64."),
        ({"X-HubSpot-Signature-v3": sig(s, BODY, NOW_MS), "X-HubSpot-Request-Timestamp": "%d.5" % NOW_MS},
         "A fractional timestamp.")])
    v.append(vec("other-url", "Signed over the URL seen behind a proxy, not the configured public URL.", "hubspot",
                 ["hubspot-secret-current"], JSON_CT | {"X-HubSpot-Request-Timestamp": str(NOW_MS),
                 "X-HubSpot-Signature-v3": b64(mac(hashlib.sha256, s, "POSThttp://10.0.0.5:8080/webhook/h" + BODY + str(NOW_MS)))},
                 BODY, "BAD_SIGNATURE", public_url=HUBSPOT_URL))
    v.append(vec("seconds-timestamp", "The timestamp in seconds where HubSpot sends milliseconds: far outside the window.",
                 "hubspot", [s], JSON_CT | {"X-HubSpot-Request-Timestamp": str(NOW),
                                            "X-HubSpot-Signature-v3": sig(s, BODY, NOW)},
                 BODY, "STALE_TIMESTAMP", public_url=HUBSPOT_URL))
    write("hubspot", v)





def mux():
    s = "mux-secret-current"
    body = '{"type":"video.asset.ready","id":"3a56ac3d-33da-4366-855b-f592d898409d","data":{"amount":4200}}'
    sig = lambda k, b, t: "t=%d,v1=%s" % (t, hexs(mac(hashlib.sha256, k, "%d.%s" % (t, b))))
    o = "mux-secret-previous"
    v = common("mux", s, o, lambda k, b, ts: {"Mux-Signature": sig(k, b, ts)}, body,
               "3a56ac3d-33da-4366-855b-f592d898409d", "Mux-Signature", extra=[
        ({"Mux-Signature": "t=%d,v2=%s" % (NOW, hexs(mac(hashlib.sha256, s, "%d.%s" % (NOW, body))))}, "Only an unknown scheme v2."),
        ({"Mux-Signature": "t=%d,v1=%s" % (NOW, b64(mac(hashlib.sha256, s, "%d.%s" % (NOW, body))))}, "v1 is base64, not hex.")])
    write("mux", v)




def pagerduty():
    body = '{"event":{"id":"01DEN4HPBQAAAG05V5QQYBRZMF","event_type":"incident.triggered","data":{"amount":4200}}}'
    s = "pagerduty-secret-current"
    v = body_hmac("pagerduty", "X-PagerDuty-Signature", hashlib.sha256, "hex", "v1=", body)
    good = "v1=" + hexs(mac(hashlib.sha256, s, body))
    v.append(vec("several-signatures", "Two v1 entries (PagerDuty sends one per active secret); the second matches.",
                 "pagerduty", [s], JSON_CT | {"X-PagerDuty-Signature": "v1=" + "ab" * 32 + "," + good}, body, "NONE"))
    write("pagerduty", v)



def svix_alias(provider):
    """Clerk and Resend send through Svix: svix-* headers, the Standard Webhooks scheme."""
    s, o = "whsec_" + b64((provider + "-current-signing-key!!").encode()), "whsec_" + b64((provider + "-previous-key").encode())
    key = lambda k: base64.b64decode(k[len("whsec_"):])
    msg_id = "msg_2b1" + provider.upper() + "0000000000000"

    def sign(k, b, ts):
        return {"svix-id": msg_id, "svix-timestamp": str(ts),
                "svix-signature": "v1," + b64(mac(hashlib.sha256, key(k), "%s.%d.%s" % (msg_id, ts, b)))}
    good = sign(s, BODY, NOW)["svix-signature"]
    return common(provider, s, o, sign, BODY, msg_id, "svix-signature", extra=[
        ({"svix-id": msg_id, "svix-timestamp": str(NOW), "svix-signature": good[3:]}, "No v1, prefix."),
        ({"svix-timestamp": str(NOW), "svix-signature": good}, "No svix-id (it is signed)."),
        ({"svix-id": msg_id, "svix-signature": good}, "No svix-timestamp.")])


def clerk():
    write("clerk", svix_alias("clerk"))


def resend():
    write("resend", svix_alias("resend"))




def workos():
    s = "workos-secret-current"
    sig = lambda k, b, t: "t=%d, v1=%s" % (t, hexs(mac(hashlib.sha256, k, "%d.%s" % (t, b))))
    v = stamped("workos", "WorkOS-Signature", sig, ms=True, dedupe="evt_1NG8Du2eZvKYlo2C", extra=[
        ({"WorkOS-Signature": "v1=" + hexs(mac(hashlib.sha256, s, "%d.%s" % (NOW_MS, BODY)))}, "No t= parameter."),
        ({"WorkOS-Signature": "t=%d, v1=%s" % (NOW_MS, b64(mac(hashlib.sha256, s, "%d.%s" % (NOW_MS, BODY))))}, "v1 is base64.")])
    v.append(vec("within-default-tolerance", "Signed 170 s before the receive time: inside WorkOS's 180 s.", "workos",
                 [s], JSON_CT | {"WorkOS-Signature": sig(s, BODY, NOW_MS - 170_000)}, BODY, "NONE",
                 dedupe="evt_1NG8Du2eZvKYlo2C"))
    v.append(vec("outside-default-tolerance", "Signed 190 s before the receive time: outside WorkOS's 180 s.", "workos",
                 [s], JSON_CT | {"WorkOS-Signature": sig(s, BODY, NOW_MS - 190_000)}, BODY, "STALE_TIMESTAMP"))
    write("workos", v)


def webflow():
    s = "webflow-secret-current"
    sig = lambda k, b, t: hexs(mac(hashlib.sha256, k, "%d:%s" % (t, b)))
    write("webflow", stamped("webflow", "x-webflow-signature", sig, ts_header="x-webflow-timestamp", ms=True, extra=[
        ({"x-webflow-signature": sig(s, BODY, NOW_MS)}, "No x-webflow-timestamp."),
        ({"x-webflow-signature": "sha256=" + sig(s, BODY, NOW_MS), "x-webflow-timestamp": str(NOW_MS)},
         "An unexpected sha256= prefix."),
        ({"x-webflow-signature": sig(s, BODY, NOW_MS), "x-webflow-timestamp": "+" + str(NOW_MS)}, "A signed timestamp.")]))


def circleci():
    body = '{"id":"3888f21b-eaa7-38e3-8f3d-75a63bba8895","type":"workflow-completed","amount":4200}'
    s = "circleci-secret-current"
    v = body_hmac("circleci", "circleci-signature", hashlib.sha256, "hex", "v1=", body,
                  dedupe="3888f21b-eaa7-38e3-8f3d-75a63bba8895")
    v.append(vec("other-versions-ignored", "A future v2 entry beside the matching v1: the unknown version is ignored.",
                 "circleci", [s], JSON_CT | {"circleci-signature": "v2=00ff,v1=" + hexs(mac(hashlib.sha256, s, body))},
                 body, "NONE", dedupe="3888f21b-eaa7-38e3-8f3d-75a63bba8895"))
    write("circleci", v)



TRELLO_URL = "https://hooks.example.com/webhook/trello-board?board=1"


def trello():
    body = '{"action":{"type":"updateCard","data":{"amount":4200}},"model":{"id":"4d5ea62fd76aa1136000000c"}}'
    v = body_hmac("trello", "X-Trello-Webhook", hashlib.sha1, "base64", "", body, public_url=TRELLO_URL,
                  content=lambda b, u: b + u)
    v.append(vec("other-url", "Signed with another callback URL than the configured public URL.", "trello",
                 ["trello-secret-current"], JSON_CT | {"X-Trello-Webhook": b64(mac(hashlib.sha1, "trello-secret-current",
                 body + "http://10.0.0.5:8080/webhook/t"))}, body, "BAD_SIGNATURE", public_url=TRELLO_URL))
    write("trello", v)


# Senders that sign the body alone: (provider, header, hash, encoding, prefix, body, dedupe id, id header, id value).
BODY_SIGNERS = [
    ("typeform", "Typeform-Signature", hashlib.sha256, "base64", "sha256=",
     '{"event_id":"01HXYZTYPEFORM0000000000","event_type":"form_response","form_response":{"amount":4200}}',
     "01HXYZTYPEFORM0000000000", None, None),
    ("lemon-squeezy", "X-Signature", hashlib.sha256, "hex", "",
     '{"meta":{"event_name":"order_created"},"data":{"type":"orders","id":"1","attributes":{"total":4200}}}',
     None, None, None),
    ("woocommerce", "X-WC-Webhook-Signature", hashlib.sha256, "base64", "",
     '{"id":727,"status":"processing","currency":"USD","total":"4200.00"}',
     None, "X-WC-Webhook-Delivery-ID", "8b4e6a2c0d5f4e1a9c3b7d6e5f4a3b2c"),
    ("razorpay", "X-Razorpay-Signature", hashlib.sha256, "hex", "",
     '{"entity":"event","account_id":"acc_BFQ7uQEaa7j2z7","event":"payment.captured","payload":{"amount":4200}}',
     None, "x-razorpay-event-id", "KHnCE2Lq6Bl7sX"),
    ("bitbucket", "X-Hub-Signature", hashlib.sha256, "hex", "sha256=",
     '{"push":{"changes":[{"new":{"name":"main"}}]},"repository":{"full_name":"team/repo"},"amount":4200}',
     None, "X-Request-UUID", "0e2c1ab5-7a0e-4d8d-9c70-3f5d8c7a9b41"),
    ("sentry", "Sentry-Hook-Signature", hashlib.sha256, "hex", "",
     '{"action":"created","installation":{"uuid":"a8e5d37a-696c-4c54-adb5-b3f28d64c7de"},"data":{"amount":4200}}',
     None, "Request-ID", "6d4c8a10-2f0b-4c4e-8f2e-0b8a7c6d5e4f"),
    ("vercel", "x-vercel-signature", hashlib.sha1, "hex", "",
     '{"id":"uev_0123456789abcdef","type":"deployment.created","payload":{"amount":4200}}',
     "uev_0123456789abcdef", None, None),
    ("gitea", "X-Gitea-Signature", hashlib.sha256, "hex", "",
     '{"ref":"refs/heads/develop","before":"28e1879d029cb852e4844d9c718537df08844e03","amount":4200}',
     None, "X-Gitea-Delivery", "f6266f16-1bf3-46a5-9ea4-602e06ead473"),
    ("coinbase-commerce", "X-CC-Webhook-Signature", hashlib.sha256, "hex", "",
     '{"id":1,"scheduled_for":"2026-01-01T00:00:00Z","event":{"id":"24934862-d980-46cb-9402-43c81b0cdba6",'
     '"type":"charge:created","amount":4200}}', None, None, None),
    ("clickup", "X-Signature", hashlib.sha256, "hex", "",
     '{"webhook_id":"7689a169-a000-4985-8676-6902b96d6627","event":"taskCreated","task_id":"c0j","amount":4200}',
     None, None, None),
]


def body_signers():
    for provider, header, alg, enc, prefix, body, dedupe, id_header, id_value in BODY_SIGNERS:
        write(provider, body_hmac(provider, header, alg, enc, prefix, body, dedupe=dedupe, id_header=id_header,
                                  id_value=id_value))


def iso(ts):
    return datetime.datetime.fromtimestamp(ts, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def zendesk():
    s, o = "dGhpc19zZWNyZXRfaXNfZm9yX3Rlc3Rpbmdfb25seQ==", "zendesk-signing-secret-previous"
    inv = "8350205582"
    sig = lambda k, b, t: b64(mac(hashlib.sha256, k, t + b))
    sign = lambda k, b, ts: {"X-Zendesk-Webhook-Signature": sig(k, b, iso(ts)),
                             "X-Zendesk-Webhook-Signature-Timestamp": iso(ts), "x-zendesk-webhook-invocation-id": inv}
    v = common("zendesk", s, o, sign, BODY, inv, "X-Zendesk-Webhook-Signature", extra=[
        ({"X-Zendesk-Webhook-Signature": sig(s, BODY, str(NOW)), "X-Zendesk-Webhook-Signature-Timestamp": str(NOW)},
         "Epoch seconds where Zendesk sends an ISO 8601 time."),
        ({"X-Zendesk-Webhook-Signature": sig(s, BODY, "2026-01-01T00:00:00.000Z"),
          "X-Zendesk-Webhook-Signature-Timestamp": "2026-01-01T00:00:00.000Z"}, "Fractional seconds."),
        ({"X-Zendesk-Webhook-Signature": sig(s, BODY, "2026-01-01T01:00:00+01:00"),
          "X-Zendesk-Webhook-Signature-Timestamp": "2026-01-01T01:00:00+01:00"}, "An offset instead of Z."),
        ({"X-Zendesk-Webhook-Signature": sig(s, BODY, "2026-02-30T00:00:00Z"),
          "X-Zendesk-Webhook-Signature-Timestamp": "2026-02-30T00:00:00Z"}, "February 30."),
        ({"X-Zendesk-Webhook-Signature": sig(s, BODY, iso(NOW))}, "No X-Zendesk-Webhook-Signature-Timestamp.")])
    write("zendesk", v)


COMMON_HMAC_SENDERS = (body_signers, calendly, hubspot, mux, pagerduty, clerk, resend, workos, webflow, circleci, trello,
                       zendesk)


# ---- public-key and body-signed presets (issue 20 item 1): sendgrid, discord, mailgun, standard-webhooks v1a ----

def _crypto():
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519
    return hashes, serialization, ec, ed25519


def p256_key(scalar):
    """A P-256 private key from a fixed scalar, and the tenant secret for it: base64 of its DER SubjectPublicKeyInfo."""
    hashes, serialization, ec, _ = _crypto()
    key = ec.derive_private_key(scalar, ec.SECP256R1())
    der = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return key, b64(der)


def p256_sign(key, content):
    hashes, _, ec, _ = _crypto()
    return key.sign(content.encode(), ec.ECDSA(hashes.SHA256(), deterministic_signing=True))


def ed25519_key(seed):
    """An Ed25519 private key from a fixed 32-byte seed, and its raw 32-byte public key."""
    _, serialization, _, ed25519 = _crypto()
    key = ed25519.Ed25519PrivateKey.from_private_bytes(seed)
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return key, raw


def sendgrid():
    cur, cur_pub = p256_key(0x5e9d61c2a8f04b7e9c3d2a1f0e8d7c6b5a49382716f5e4d3c2b1a09f8e7d6c5b)
    old, old_pub = p256_key(0x1f2e3d4c5b6a79880716253443526170e1d2c3b4a5968778695a4b3c2d1e0f1a)
    other, _ = p256_key(0x0badc0ffee0badc0ffee0badc0ffee0badc0ffee0badc0ffee0badc0ffee0bad)
    keys = {cur_pub: cur, old_pub: old}
    sig_h, ts_h = "X-Twilio-Email-Event-Webhook-Signature", "X-Twilio-Email-Event-Webhook-Timestamp"

    def sign(k, b, ts):
        return {ts_h: str(ts), sig_h: b64(p256_sign(keys.get(k, other), "%d%s" % (ts, b)))}
    body = ('[{"email":"example@test.com","timestamp":1767225590,"smtp-id":"<14c5d75ce93.dfd.64b469@ismtpd-555>",'
            '"event":"processed","category":["cat facts"],"sg_event_id":"sg_event_id_4200",'
            '"sg_message_id":"14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0"}]\r\n')
    good = sign(cur_pub, body, NOW)[sig_h]
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
    r, s_ = decode_dss_signature(base64.b64decode(good))
    p1363 = b64(r.to_bytes(32, "big") + s_.to_bytes(32, "big"))
    v = common("sendgrid", cur_pub, old_pub, sign, body, None, sig_h, extra=[
        ({ts_h: str(NOW), sig_h: base64.b64decode(good).hex()}, "Hex instead of base64."),
        ({ts_h: str(NOW), sig_h: p1363}, "The raw r||s form (64 bytes, IEEE P1363) instead of DER."),
        ({ts_h: str(NOW), sig_h: b64(base64.b64decode(good)[:-3])}, "A truncated DER signature."),
        ({sig_h: good}, "No X-Twilio-Email-Event-Webhook-Timestamp."),
        ({ts_h: "soon", sig_h: good}, "Non-numeric timestamp."),
        ({ts_h: str(NOW), sig_h: b64(b"\x30" * 80)}, "A signature longer than any P-256 DER signature.")])
    lib_key = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEEDr2LjtURuePQzplybdC+u4CwrqDqBaWjcMMsTbhdbcwHBcepxo7yAQGhHPTnlvFYPAZFceEu/1FwCM/QmGUhA=="
    lib_sig = "MEUCIQCtIHJeH93Y+qpYeWrySphQgpNGNr/U+UyUlBkU6n7RAwIgJTz2C+8a8xonZGi6BpSzoQsbVRamr2nlxFDWYNH2j/0="
    lib_body = '{"category":"example_payload","event":"test_event","message_id":"message_id"}'
    v.append(vec("sendgrid-library-example", "The test vector shared by SendGrid's own libraries (sendgrid-java"
                 " EventWebhookTest, sendgrid-python test_eventwebhook, sendgrid-php EventWebhookTest: that public key,"
                 " signature, timestamp 1588788367 and payload); received 5 s later.", "sendgrid", [lib_key],
                 {"Content-Type": "application/json", ts_h: "1588788367", sig_h: lib_sig}, lib_body, "NONE",
                 received_at=1588788372000, dedupe=None))
    v.append(vec("sendgrid-library-bad-signature", "SendGrid's libraries' failing signature (one digit changed) for the"
                 " same payload.", "sendgrid", [lib_key], {"Content-Type": "application/json", ts_h: "1588788367",
                 sig_h: lib_sig.replace("YNH2j", "YNH3j")}, lib_body, "BAD_SIGNATURE", received_at=1588788372000))
    write("sendgrid", v)


def discord():
    cur, cur_raw = ed25519_key(bytes(range(32)))
    old, old_raw = ed25519_key(bytes(range(32, 64)))
    other, _ = ed25519_key(b"\x42" * 32)
    keys = {cur_raw.hex(): cur, old_raw.hex(): old}
    sig_h, ts_h = "X-Signature-Ed25519", "X-Signature-Timestamp"

    def sign(k, b, ts):
        return {ts_h: str(ts), sig_h: keys.get(k, other).sign(("%d%s" % (ts, b)).encode()).hex()}
    body = ('{"app_permissions":"442368","application_id":"1183217041839276100","id":"1183219437123404830",'
            '"type":2,"data":{"id":"1183218452347891722","name":"ping","type":1},"token":"aW50ZXJhY3Rpb246MTE4",'
            '"version":1,"guild_id":"4200"}')
    good = sign(cur_raw.hex(), body, NOW)[sig_h]
    v = common("discord", cur_raw.hex(), old_raw.hex(), sign, body, "1183219437123404830", sig_h, extra=[
        ({ts_h: str(NOW), sig_h: b64(bytes.fromhex(good))}, "Base64 instead of hex."),
        ({ts_h: str(NOW), sig_h: good[:-2]}, "63 bytes: one short of an Ed25519 signature."),
        ({ts_h: str(NOW), sig_h: good + "00"}, "65 bytes."),
        ({sig_h: good}, "No X-Signature-Timestamp."),
        ({ts_h: "-" + str(NOW), sig_h: good}, "A signed negative timestamp.")])
    ping = ('{"app_permissions":"442368","application_id":"1183217041839276100","id":"1183219437123404831",'
            '"token":"aW50ZXJhY3Rpb246cGluZw","type":1,"version":1}')
    json_ct = {"Content-Type": "application/json"}
    v.append(vec("ping-handshake", "Discord's PING interaction (type 1,"
                 " https://discord.com/developers/docs/interactions/receiving-and-responding): verified, then answered"
                 " with the PONG {\"type\":1} and not buffered.", "discord", [cur_raw.hex()],
                 json_ct | sign(cur_raw.hex(), ping, NOW), ping, "NONE", dedupe="1183219437123404831",
                 handshake={"type": "1"}))
    v.append(vec("ping-unsigned", "A PING with a bad signature is refused (401, as Discord's security checks"
                 " require), not answered.", "discord", [cur_raw.hex()], json_ct | sign("not-the-tenant-key", ping, NOW),
                 ping, "BAD_SIGNATURE"))
    event = ('{"version":1,"application_id":"1183217041839276100","type":1,"event":{"type":"APPLICATION_AUTHORIZED",'
             '"timestamp":"2026-01-01T00:00:00.000000+00:00","data":{"integration_type":0}}}')
    v.append(vec("webhook-event-type-1", "A Discord Webhook Events body (its type 1 is an event, not a PING: it has an"
                 " event field): buffered, never answered as a PONG.", "discord", [cur_raw.hex()],
                 json_ct | sign(cur_raw.hex(), event, NOW), event, "NONE", dedupe=None))
    write("discord", v)


def mailgun():
    s, o = "key-mailgun-webhook-signing-current", "key-mailgun-webhook-signing-previous"
    token = "e0b5477167110d68991efc6b9f89f0a11066af27834600e123"

    def body(k, ts, tok=token, event_id="CPgfbmQMTCKtHW6uIWtuVe", signed_tok=None, extra=""):
        sig = hexs(mac(hashlib.sha256, k, "%s%s" % (ts, signed_tok or tok)))
        return ('{"signature":{"token":"%s","timestamp":"%s","signature":"%s"%s},"event-data":{"id":"%s",'
                '"event":"delivered","timestamp":1767225599.123456,"recipient":"alice@example.com","amount":4200}}'
                % (tok, ts, sig, extra, event_id))
    json_ct = {"Content-Type": "application/json"}
    good = body(s, NOW)
    no_sig = good.replace(',"signature":"%s"' % hexs(mac(hashlib.sha256, s, "%d%s" % (NOW, token))), "")

    def m(name, desc, secrets, b, expected, **kw):
        return vec(name, desc, "mailgun", secrets, dict(json_ct), b, expected, **kw)
    v = [m("valid", "Signed with the current signing key at the receive time; the token is the dedupe id.", [s, o], good,
           "NONE", dedupe=token),
         m("valid-previous-secret", "Signed with the previous signing key.", [s, o], body(o, NOW), "NONE", dedupe=token),
         m("tampered-body", "The token changed after signing (the signature covers timestamp + token).", [s],
           body(s, NOW, tok="f" + token[1:], signed_tok=token), "BAD_SIGNATURE"),
         m("wrong-secret", "Signed with a key the tenant does not have.", [s], body("not-the-tenant-secret", NOW),
           "BAD_SIGNATURE"),
         m("missing-header", "No signature in the body's signature object.", [s], no_sig, "MISSING_SIGNATURE"),
         m("not-json", "A form body (Mailgun's legacy webhooks): no JSON signature object.", [s],
           "token=%s&timestamp=%d&signature=00" % (token, NOW), "MISSING_SIGNATURE"),
         m("stale-timestamp", "Correctly signed one hour before the receive time.", [s], body(s, NOW - 3600),
           "STALE_TIMESTAMP"),
         m("future-timestamp", "Correctly signed one hour after the receive time.", [s], body(s, NOW + 3600),
           "STALE_TIMESTAMP"),
         m("replayed-later", "The valid request replayed ten minutes later: stale.", [s], good, "STALE_TIMESTAMP",
           received_at=NOW_MS + 600_000),
         m("malformed-1", "The signature is not hex.", [s], good.replace('"signature":"', '"signature":"zz', 1),
           "MALFORMED_SIGNATURE"),
         m("malformed-2", "No token.", [s], good.replace('"token":"%s",' % token, ""), "MALFORMED_SIGNATURE"),
         m("malformed-3", "A non-numeric timestamp.", [s], body(s, "soon"), "MALFORMED_SIGNATURE"),
         m("malformed-4", "A 31-byte signature.", [s], good.replace(hexs(mac(hashlib.sha256, s, "%d%s" % (NOW, token))),
           hexs(mac(hashlib.sha256, s, "%d%s" % (NOW, token)))[:-2]), "MALFORMED_SIGNATURE"),
         m("other-event-data-same-token", "Mailgun signs timestamp + token, not the event: a captured signature block"
           " verifies on any body. Accepted here; its dedupe id is the token, so after the genuine event it is a"
           " duplicate and never stored (ProviderSchemesTests).", [s], body(s, NOW, event_id="forged-event-id"), "NONE",
           dedupe=token),
         m("parent-signature", "A subaccount's event: signature under the subaccount's key, parent-signature under the"
           " primary account's (the tenant's) key.", [s],
           body("subaccount-key", NOW, extra=',"parent-signature":"%s"' % hexs(mac(hashlib.sha256, s, "%d%s" % (NOW, token)))),
           "NONE", dedupe=token)]
    write("mailgun", v)


def standard_webhooks_v1a():
    """Ed25519 (v1a) entries with whpk_ public keys, appended to standard-webhooks.json."""
    cur, cur_raw = ed25519_key(bytes(range(64, 96)))
    old, old_raw = ed25519_key(bytes(range(96, 128)))
    other, _ = ed25519_key(b"\x24" * 32)
    pk, old_pk = "whpk_" + b64(cur_raw), "whpk_" + b64(old_raw)
    hmac_secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    msg_id = "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W"
    keys = {pk: cur, old_pk: old}

    def h(k, b, ts=NOW, extra=""):
        sig = keys.get(k, other).sign(("%s.%d.%s" % (msg_id, ts, b)).encode())
        return {"Content-Type": "application/json", "webhook-id": msg_id, "webhook-timestamp": str(ts),
                "webhook-signature": (extra + " " if extra else "") + "v1a," + b64(sig)}
    v1 = "v1," + b64(mac(hashlib.sha256, base64.b64decode(hmac_secret[6:]), "%s.%d.%s" % (msg_id, NOW, BODY)))
    sw = "standard-webhooks"
    out = [vec("v1a-valid", "An Ed25519 (v1a) signature of {id}.{ts}.{body}, verified with the whpk_ public key"
               " (https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md,"
               " Signature scheme).", sw, [pk, old_pk], h(pk, BODY), BODY, "NONE", dedupe=msg_id),
           vec("v1a-previous-key", "Signed with the previous key pair: every active public key is tried.", sw,
               [pk, old_pk], h(old_pk, BODY), BODY, "NONE", dedupe=msg_id),
           vec("v1a-tampered-body", "A v1a signature of the original body, sent with one digit changed.", sw, [pk],
               h(pk, BODY), BODY.replace("4200", "4201"), "BAD_SIGNATURE"),
           vec("v1a-wrong-key", "Signed with a key pair the tenant does not have.", sw, [pk], h("other", BODY), BODY,
               "BAD_SIGNATURE"),
           vec("v1a-stale", "Correctly signed (v1a), one hour before the receive time.", sw, [pk],
               h(pk, BODY, NOW - 3600), BODY, "STALE_TIMESTAMP"),
           vec("v1a-short-signature", "A v1a entry of 32 bytes (an Ed25519 signature has 64).", sw, [pk],
               dict(h(pk, BODY), **{"webhook-signature": "v1a," + b64(b"\x01" * 32)}), BODY, "MALFORMED_SIGNATURE"),
           vec("v1a-mixed-secrets-v1a-header", "A tenant holding a whsec_ secret and a whpk_ key (moving from one to the"
               " other); the request carries only v1a.", sw, [hmac_secret, pk], h(pk, BODY), BODY, "NONE", dedupe=msg_id),
           vec("v1a-mixed-secrets-v1-header", "The same tenant; the request carries only v1 (HMAC).", sw,
               [hmac_secret, pk], {"Content-Type": "application/json", "webhook-id": msg_id,
                                   "webhook-timestamp": str(NOW), "webhook-signature": v1}, BODY, "NONE", dedupe=msg_id),
           vec("v1a-and-v1-wrong-v1a", "Both kinds in one header, the v1a by another key pair, the v1 right: accepted"
               " by the whsec_ secret.", sw, [pk, hmac_secret], h("other", BODY, extra=v1), BODY, "NONE", dedupe=msg_id),
           vec("v1a-only-public-keys-v1-header", "A tenant with only a whpk_ key and a v1 (HMAC) request: nothing can"
               " verify it.", sw, [pk], {"Content-Type": "application/json", "webhook-id": msg_id,
                                         "webhook-timestamp": str(NOW), "webhook-signature": v1}, BODY,
               "BAD_SIGNATURE")]
    path = os.path.join(HERE, sw + ".json")
    with open(path) as f:
        vectors = json.load(f)
    write(sw, vectors + out)


PUBLIC_KEY_AND_BODY_SIGNED = (sendgrid, discord, mailgun, standard_webhooks_v1a)  # v1a after standard_webhooks


# ---- handshake presets (issue 20 item 1, part 2): meta, x, dropbox and their GET checks ----

META_VERIFY_TOKEN_LABEL = "meta-verify-token"


def meta():
    s, o = "meta-app-secret-current-0123", "meta-app-secret-previous-987"
    body = ('{"object":"whatsapp_business_account","entry":[{"id":"102290129340398","changes":[{"field":"messages",'
            '"value":{"messaging_product":"whatsapp","metadata":{"phone_number_id":"106540352242922"},"amount":4200}}]}]}')
    sign = lambda k, b, ts: {"X-Hub-Signature-256": "sha256=" + hexs(mac(hashlib.sha256, k, b))}
    v = common("meta", s, o, sign, body, None, "X-Hub-Signature-256", ts_cases=False, extra=[
        ({"X-Hub-Signature-256": hexs(mac(hashlib.sha256, s, body))}, "No sha256= prefix."),
        ({"X-Hub-Signature-256": "sha1=" + hexs(mac(hashlib.sha1, s, body))}, "sha1= (Meta's older X-Hub-Signature) in"
         " the sha256 header."),
        ({"X-Hub-Signature-256": "sha256=" + b64(mac(hashlib.sha256, s, body))}, "Base64 instead of hex.")])
    v.append(vec("sha1-header-only", "Only Meta's legacy X-Hub-Signature (SHA-1): not read, so missing.", "meta", [s],
                 {"Content-Type": "application/json", "X-Hub-Signature": "sha1=" + hexs(mac(hashlib.sha1, s, body))},
                 body, "MISSING_SIGNATURE"))
    write("meta", v)


def x():
    s, o = "x-consumer-secret-current-0123456789", "x-consumer-secret-previous-987654321"
    body = '{"for_user_id":"2244994945","tweet_create_events":[{"id_str":"1234567890","text":"hello","amount":4200}]}'
    sign = lambda k, b, ts: {"x-twitter-webhooks-signature": "sha256=" + b64(mac(hashlib.sha256, k, b))}
    v = common("x", s, o, sign, body, None, "x-twitter-webhooks-signature", ts_cases=False, extra=[
        ({"x-twitter-webhooks-signature": b64(mac(hashlib.sha256, s, body))}, "No sha256= prefix."),
        ({"x-twitter-webhooks-signature": "sha256=" + hexs(mac(hashlib.sha256, s, body))}, "Hex instead of base64."),
        ({"x-twitter-webhooks-signature": "sha256=" + b64(mac(hashlib.sha1, s, body))}, "Base64 of 20 bytes.")])
    crc = "ZDNkMmRjNmQtOWFhMi00ZmE0LThiZDMtNGE3Y2Q3YWQ2ZjVk"
    v.append(vec("crc-answer-as-signature", "The oracle guard: a body equal to a CRC token, signed with the CRC answer"
                 " for that token (base64 HMAC-SHA256 of the token under the consumer secret, exactly what GET"
                 " ?crc_token= returns). The MAC matches, but X's events are JSON objects and no token starts with"
                 " '{': refused before any MAC.", "x", [s],
                 {"Content-Type": "application/json",
                  "x-twitter-webhooks-signature": "sha256=" + b64(mac(hashlib.sha256, s, crc))}, crc,
                 "BAD_SIGNATURE"))
    write("x", v)


def dropbox():
    s, o = "dropbox-app-secret-current", "dropbox-app-secret-previous"
    body = '{"list_folder":{"accounts":["dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc"]},"delta":{"users":[4200]}}'
    sign = lambda k, b, ts: {"X-Dropbox-Signature": hexs(mac(hashlib.sha256, k, b))}
    write("dropbox", common("dropbox", s, o, sign, body, None, "X-Dropbox-Signature", ts_cases=False, extra=[
        ({"X-Dropbox-Signature": "sha256=" + hexs(mac(hashlib.sha256, s, body))}, "A sha256= prefix Dropbox never"
         " sends."),
        ({"X-Dropbox-Signature": b64(mac(hashlib.sha256, s, body))}, "Base64 instead of hex."),
        ({"X-Dropbox-Signature": hexs(mac(hashlib.sha1, s, body))}, "Hex of 20 bytes: wrong length.")]))


def rfc3339(ts):
    """Twitch's timestamps: RFC 3339, UTC, nanoseconds."""
    import datetime
    return datetime.datetime.fromtimestamp(ts, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") + ".634234626Z"


def twitch():
    s, o = "twitch-eventsub-secret-current", "twitch-eventsub-secret-previous"
    mid = "befa7b53-d79d-478f-86b9-120f112b044e"
    body = ('{"subscription":{"id":"f1c2a387-161a-49f9-a165-0f21d7a4e1c4","type":"channel.follow","version":"2"},'
            '"event":{"user_id":"1337","broadcaster_user_id":"4200"}}')

    def sign(k, b, ts, kind="notification", msg_id=mid):
        t = rfc3339(ts)
        return {"Twitch-Eventsub-Message-Id": msg_id, "Twitch-Eventsub-Message-Timestamp": t,
                "Twitch-Eventsub-Message-Type": kind,
                "Twitch-Eventsub-Message-Signature": "sha256=" + hexs(mac(hashlib.sha256, k, msg_id + t + b))}

    ok = sign(s, body, NOW)
    v = common("twitch", s, o, lambda k, b, ts: sign(k, b, ts), body, mid, "Twitch-Eventsub-Message-Signature", extra=[
        (ok | {"Twitch-Eventsub-Message-Signature": ok["Twitch-Eventsub-Message-Signature"][len("sha256="):]},
         "No sha256= prefix."),
        (ok | {"Twitch-Eventsub-Message-Signature": "sha256=" + b64(mac(hashlib.sha256, s, mid + rfc3339(NOW) + body))},
         "Base64 instead of hex."),
        ({k: val for k, val in ok.items() if k != "Twitch-Eventsub-Message-Id"}, "No Twitch-Eventsub-Message-Id."),
        ({k: val for k, val in ok.items() if k != "Twitch-Eventsub-Message-Timestamp"},
         "No Twitch-Eventsub-Message-Timestamp."),
        (ok | {"Twitch-Eventsub-Message-Timestamp": str(NOW)}, "A unix timestamp instead of RFC 3339."),
        (ok | {"Twitch-Eventsub-Message-Timestamp": "2026-01-01 00:00:00Z"}, "A space instead of T.")])
    for case in v:
        if case["name"] == "replayed-later":  # Twitch allows ten minutes: replayed eleven minutes later
            case["receivedAt"] = NOW_MS + 660_000
            case["description"] = "The valid request replayed eleven minutes later: stale (Twitch allows ten)."
    inside = sign(s, body, NOW - 590)
    v.append(vec("within-ten-minutes", "Signed 590 s before the receive time: within Twitch's ten minutes.", "twitch",
                 [s], {"Content-Type": "application/json"} | inside, body, "NONE", dedupe=mid))
    outside = sign(s, body, NOW - 610)
    v.append(vec("outside-ten-minutes", "Signed 610 s before the receive time: a replay, refused before the MAC.",
                 "twitch", [s], {"Content-Type": "application/json"} | outside, body, "STALE_TIMESTAMP"))
    swapped = dict(ok)
    swapped["Twitch-Eventsub-Message-Id"] = "00000000-0000-0000-0000-000000000000"
    v.append(vec("other-message-id", "A valid request re-sent under another message id: the id is signed.", "twitch",
                 [s], {"Content-Type": "application/json"} | swapped, body, "BAD_SIGNATURE"))
    challenge = "pogchamp-kappa-360noscope-vohiyo"
    hs = ('{"challenge":"' + challenge + '","subscription":{"id":"f1c2a387-161a-49f9-a165-0f21d7a4e1c4",'
          '"status":"webhook_callback_verification_pending","type":"channel.follow","version":"2"}}')
    v.append(vec("callback-verification", "Twitch's webhook_callback_verification (https://dev.twitch.tv/docs/eventsub/"
                 "handling-webhook-events/#responding-to-a-challenge-request): verified, then answered with the raw"
                 " challenge as text/plain; not buffered.", "twitch", [o, s],
                 {"Content-Type": "application/json"} | sign(s, hs, NOW, "webhook_callback_verification",
                                                             "e76c6bd4-55c9-4987-8304-da1588d8988b"), hs, "NONE",
                 dedupe="e76c6bd4-55c9-4987-8304-da1588d8988b", handshake={"text": challenge}))
    v.append(vec("callback-verification-unsigned", "A webhook_callback_verification signed with another secret: 401,"
                 " no challenge echoed.", "twitch", [s],
                 {"Content-Type": "application/json"} | sign("wrong-secret", hs, NOW, "webhook_callback_verification"),
                 hs, "BAD_SIGNATURE"))
    rv = ('{"subscription":{"id":"f1c2a387-161a-49f9-a165-0f21d7a4e1c4","status":"authorization_revoked",'
          '"type":"channel.follow","version":"2"}}')
    rid = "84c1e79a-2a4b-4c13-ba0b-4312293e9308"
    v.append(vec("revocation", "A revocation: verified and buffered like an event (the origin learns of it).",
                 "twitch", [s], {"Content-Type": "application/json"} | sign(s, rv, NOW, "revocation", rid), rv, "NONE",
                 dedupe=rid))
    write("twitch", v)


def query_handshakes():
    """GET checks: the query as sent, and the expected answer (status 200 body) or refusal."""
    meta_s, meta_o = "meta-app-secret-current-0123", "meta-app-secret-previous-987"
    token = lambda k: hexs(mac(hashlib.sha256, k, META_VERIFY_TOKEN_LABEL))
    x_s, x_o = "x-consumer-secret-current-0123456789", "x-consumer-secret-previous-987654321"
    crc = "ZDNkMmRjNmQtOWFhMi00ZmE0LThiZDMtNGE3Y2Q3YWQ2ZjVk"
    text, js = "text/plain;charset=UTF-8", "application/json;charset=UTF-8"

    def q(name, description, provider, secrets, query, expected, content_type=None, body=None):
        v = {"name": name, "description": description, "provider": provider, "secrets": secrets, "query": query,
             "expected": expected}
        if expected == "ANSWER":
            v["contentType"] = content_type
            v["body"] = body
        return v

    meta_q = lambda tok, ch="1158201444", mode="subscribe": urllib.parse.urlencode(
        {"hub.mode": mode, "hub.verify_token": tok, "hub.challenge": ch})
    v = [
        q("meta-subscribe", "Meta's verification request (https://developers.facebook.com/docs/graph-api/webhooks/"
          "getting-started#verification-requests) with the verify token derived from the current app secret: the"
          " challenge echoed as text.", "meta", [meta_s, meta_o], meta_q(token(meta_s)), "ANSWER", text, "1158201444"),
        q("meta-previous-secret", "The verify token of the previous app secret: every active secret is tried.", "meta",
          [meta_s, meta_o], meta_q(token(meta_o)), "ANSWER", text, "1158201444"),
        q("meta-wrong-token", "A verify token no secret of the tenant derives.", "meta", [meta_s],
          meta_q("my-verify-token"), "BAD_TOKEN"),
        q("meta-app-secret-as-token", "The app secret itself is not the verify token.", "meta", [meta_s],
          meta_q(meta_s), "BAD_TOKEN"),
        q("meta-other-mode", "hub.mode other than subscribe.", "meta", [meta_s], meta_q(token(meta_s), mode="unsubscribe"),
          "MALFORMED"),
        q("meta-markup-challenge", "A challenge with markup: refused, never echoed.", "meta", [meta_s],
          meta_q(token(meta_s), ch="<script>alert(1)</script>"), "MALFORMED"),
        q("meta-long-challenge", "A challenge of 257 characters (the bound is 256).", "meta", [meta_s],
          meta_q(token(meta_s), ch="1" * 257), "MALFORMED"),
        q("meta-256-challenge", "A challenge of exactly 256 characters: answered.", "meta", [meta_s],
          meta_q(token(meta_s), ch="7" * 256), "ANSWER", text, "7" * 256),
        q("meta-repeated-param", "hub.challenge given twice.", "meta", [meta_s],
          meta_q(token(meta_s)) + "&hub.challenge=2", "MALFORMED"),
        q("meta-no-token", "No hub.verify_token.", "meta", [meta_s], "hub.mode=subscribe&hub.challenge=1", "MALFORMED"),
        q("x-crc", "X's CRC (https://developer.x.com/en/docs/twitter-api/enterprise/account-activity-api/guides/"
          "securing-webhooks): response_token is sha256= and the base64 HMAC-SHA256 of crc_token under the consumer"
          " secret (the current one).", "x", [x_s, x_o], "crc_token=" + crc, "ANSWER", js,
          '{"response_token":"sha256=' + b64(mac(hashlib.sha256, x_s, crc)) + '"}'),
        q("x-crc-with-nonce", "Other parameters (X sends nonce) are ignored.", "x", [x_s], "crc_token=" + crc +
          "&nonce=MTU0NjEzNjI0NTYyOA", "ANSWER", js, '{"response_token":"sha256=' + b64(mac(hashlib.sha256, x_s, crc)) + '"}'),
        q("x-crc-brace", "A token with a brace (as a JSON body would begin): refused, so no CRC answer can sign an event"
          " body.", "x", [x_s], "crc_token=" + urllib.parse.quote('{"a":1}'), "MALFORMED"),
        q("x-crc-space", "A '+' decodes to a space, outside the alphabet.", "x", [x_s], "crc_token=a+b", "MALFORMED"),
        q("x-crc-bad-escape", "A short percent escape.", "x", [x_s], "crc_token=abc%4", "MALFORMED"),
        q("x-crc-missing", "No crc_token.", "x", [x_s], "nonce=1", "MALFORMED"),
        q("x-crc-too-many-params", "Nine parameters (the bound is eight).", "x", [x_s],
          "&".join("p%d=1" % i for i in range(8)) + "&crc_token=a", "MALFORMED"),
        q("dropbox-challenge", "Dropbox's verification request (https://www.dropbox.com/developers/reference/webhooks):"
          " the challenge echoed as text/plain.", "dropbox", ["dropbox-app-secret-current"],
          "challenge=abc123", "ANSWER", text, "abc123"),
        q("dropbox-markup", "A challenge with markup (the reflected XSS Dropbox's docs warn of): refused.", "dropbox",
          ["dropbox-app-secret-current"], "challenge=" + urllib.parse.quote("<img src=x onerror=alert(1)>"), "MALFORMED"),
        q("dropbox-empty", "An empty challenge.", "dropbox", ["dropbox-app-secret-current"], "challenge=", "MALFORMED"),
    ]
    with open(os.path.join(HERE, "query-handshakes.json"), "w") as f:
        json.dump(v, f, indent=2, ensure_ascii=False)
        f.write("\n")


# ---- challenge-and-sign presets (issue 20 item 1): asana, xero ----

def asana():
    """Asana (https://developers.asana.com/docs/webhooks-guide): X-Hook-Signature is the hex HMAC-SHA256 of the body
    under the secret Asana sent in the X-Hook-Secret handshake (tested end to end: AsanaHandshakeTests)."""
    body = ('{"events":[{"user":{"gid":"1199999999999999","resource_type":"user"},"created_at":"2026-01-01T00:00:00.000Z",'
            '"action":"changed","resource":{"gid":"1204200000000000","resource_type":"task"},'
            '"change":{"field":"completed","action":"changed"}}]}')
    v = body_hmac("asana", "X-Hook-Signature", hashlib.sha256, "hex", "", body)
    s, heartbeat = "asana-secret-current", '{"events":[]}'
    v.append(vec("heartbeat", "Asana's heartbeat (an empty events array, signed): answered 200 with an empty body, not"
                 " stored.", "asana", [s], JSON_CT | {"X-Hook-Signature": hexs(mac(hashlib.sha256, s, heartbeat))},
                 heartbeat, "NONE", handshake={"text": ""}))
    v.append(vec("heartbeat-unsigned", "A heartbeat signed with another secret: 401.", "asana", [s],
                 JSON_CT | {"X-Hook-Signature": hexs(mac(hashlib.sha256, "not-the-secret", heartbeat))}, heartbeat,
                 "BAD_SIGNATURE"))
    write("asana", v)


XERO_ITR = '{"events":[],"firstEventSequence":0,"lastEventSequence":0,"entropy":"S0m3r4Nd0mt3xt"}'


def xero():
    """Xero (https://developer.xero.com/documentation/webhooks/configuring-your-server): x-xero-signature is the base64
    HMAC-SHA256 of the body under the webhook key; an intent-to-receive request ("events": []) is answered 200 with an
    empty body and not stored."""
    s = "xero-secret-current"
    body = ('{"events":[{"resourceUrl":"https://api.xero.com/api.xro/2.0/Contacts/717f2bfc-c6d4-41fd-b238-3f2f0c0cf777",'
            '"resourceId":"717f2bfc-c6d4-41fd-b238-3f2f0c0cf777","eventDateUtc":"2026-01-01T00:00:00.000",'
            '"eventType":"UPDATE","eventCategory":"CONTACT","tenantId":"c2cc9b6e-9458-4c7d-93cc-f02b81b0594f",'
            '"tenantType":"ORGANISATION"}],"firstEventSequence":4200,"lastEventSequence":4200,'
            '"entropy":"YSXCMKAQBJOEMGUZEPFZ"}')
    v = body_hmac("xero", "x-xero-signature", hashlib.sha256, "base64", "", body)
    sig = lambda k, b: {"x-xero-signature": b64(mac(hashlib.sha256, k, b))}
    v.append(vec("intent-to-receive", "Xero's intent-to-receive request, correctly signed: answered 200 with an empty"
                 " body, not stored.", "xero", [s], JSON_CT | sig(s, XERO_ITR), XERO_ITR, "NONE", handshake={"text": ""}))
    v.append(vec("intent-to-receive-incorrectly-signed", "An intent-to-receive request signed with another key (Xero"
                 " sends these too): 401.", "xero", [s], JSON_CT | sig("not-the-webhook-key", XERO_ITR), XERO_ITR,
                 "BAD_SIGNATURE"))
    nested = '{"events":[[]],"firstEventSequence":1,"lastEventSequence":1,"entropy":"N3st3d"}'
    v.append(vec("events-not-empty", "An events array holding an (empty) element is no intent-to-receive: stored like an"
                 " event.", "xero", [s], JSON_CT | sig(s, nested), nested, "NONE"))
    write("xero", v)


HANDSHAKE_PRESETS = (meta, x, dropbox, twitch, query_handshakes, asana, xero)


if __name__ == "__main__":
    for f in (stripe, github, shopify, slack, standard_webhooks, paddle, square, linear, zoom, intercom, gitlab, twilio)\
            + COMMON_HMAC_SENDERS + PUBLIC_KEY_AND_BODY_SIGNED + HANDSHAKE_PRESETS:
        f()
