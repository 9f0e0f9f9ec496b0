-- Provider signature schemes (README "Providers"). Read with the rest of the tenant row on a cache miss; no index.
-- public_url: the URL a provider signs (Square, Twilio), exactly as configured at the provider; NULL otherwise.
-- tolerance_seconds: the tenant's override of its scheme's timestamp tolerance; NULL means the scheme's default.
-- custom_scheme: the tenant's own scheme ("provider": "custom"), as the JSON the control plane validated.
ALTER TABLE tenants
    ADD COLUMN public_url        text,
    ADD COLUMN tolerance_seconds integer CHECK (tolerance_seconds BETWEEN 1 AND 86400),
    ADD COLUMN custom_scheme     jsonb;
