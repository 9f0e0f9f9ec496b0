-- Every replica asks every few seconds which tenants changed (tenant.TenantDirectory: updated_at after its last
-- look), so its cache follows changes without reloading every tenant it holds. The index keeps that look one index
-- range however many tenants there are.
CREATE INDEX tenants_updated_at ON tenants (updated_at);
