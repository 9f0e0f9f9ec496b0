package io.webhookbuffer.common;

import java.util.HashMap;
import java.util.Map;

/**
 * A limited resource that tenants share, divided by one rule (ARCHITECTURE invariant 6): a tenant may hold at most half
 * of what the other tenants leave of the limit (rounded up, so a limit of one can still be held). Traffic aimed at one
 * tenant takes at most half and leaves the other half to everyone else; each further tenant it aims at halves what is
 * left, never all of it; and a tenant alone, with nobody else to leave room for, still has half. Units are taken for
 * what is used (bytes that arrived, a verification waiting or running), never for what a request announces.
 *
 * <p>The monitor guards a sum and a map of the tenants holding units now (an entry goes when its tenant holds none, so
 * the map is as large as the holders); it is held for a map update, nothing more, so event loops may call it.
 */
public final class FairShare {

    private final long limit;
    // @protectedby: this
    private long held;
    // @protectedby: this
    private final Map<String, Long> byTenant = new HashMap<>();

    public FairShare(long limit) {
        this.limit = limit;
    }

    /** Takes {@code units} for {@code tenantId} when its holding stays within its share; false (nothing taken) if not. */
    public synchronized boolean tryTake(String tenantId, long units) {
        long mine = byTenant.getOrDefault(tenantId, 0L);
        long leftByOthers = limit - (held - mine);
        if (mine + units > (leftByOthers + 1) / 2) {
            return false;
        }
        byTenant.put(tenantId, mine + units);
        held += units;
        return true;
    }

    /** Gives back {@code units} that {@code tenantId} took. */
    public synchronized void giveBack(String tenantId, long units) {
        if (units <= 0) {
            return;
        }
        held -= units;
        byTenant.computeIfPresent(tenantId, (id, mine) -> mine > units ? mine - units : null);
    }

    /** Units held now, all tenants. */
    public synchronized long held() {
        return held;
    }

    /** Units {@code tenantId} holds now. */
    public synchronized long heldBy(String tenantId) {
        return byTenant.getOrDefault(tenantId, 0L);
    }

    /** Tenants holding units now. */
    public synchronized int holders() {
        return byTenant.size();
    }
}
