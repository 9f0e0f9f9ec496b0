-- Dead-letter commands page and select a tenant's rows in id order (list, replay, purge): this index serves them.
-- The (tenant_id, dead_at) index stays for time-bounded selections of large dead-letter sets.
CREATE INDEX dead_letters_tenant_id_idx ON dead_letters (tenant_id, id);
