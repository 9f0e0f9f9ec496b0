-- One row per key id of buffer.secrets.keys that has been in use: the key's check value (HMAC-SHA256 under the key of
-- a public constant, never the key), so a replica started with an id mapped to other bytes refuses to start instead
-- of serving every tenant sealed under that id 503 (SealingKeyCheck, docs/operations.md).
CREATE TABLE secret_key_checks (
    key_id      text        PRIMARY KEY,
    check_value text        NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE secret_key_checks IS
    'Check value of each secrets-at-rest key id (HMAC of a constant under the key; never the key): start-up compares.';
