-- What the tenant's sender does after a refusal (docs/providers.md, "What a sender does after a refusal"): NULL means
-- its provider's, as docs/providers.md lists it. It decides what the rate limit means: 'long' keeps 429 over the limit;
-- 'never' and 'briefly' store the event and pace its delivery by the limit (issue 43). A new nullable column: no
-- rewrite of the table, no lock beyond the moment of the ALTER.
ALTER TABLE tenants ADD COLUMN sender_retries text CHECK (sender_retries IN ('never', 'briefly', 'long'));
