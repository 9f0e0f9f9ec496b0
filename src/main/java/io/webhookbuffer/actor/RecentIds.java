package io.webhookbuffer.actor;

import java.util.LinkedHashMap;
import java.util.Map;

/** The last {@code capacity} event ids a tenant accepted, oldest forgotten first. Not thread-safe. */
final class RecentIds {

    private final LinkedHashMap<String, Boolean> ids;

    RecentIds(int capacity) {
        this.ids = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > capacity;
            }
        };
    }

    boolean contains(String id) {
        return ids.containsKey(id);
    }

    void add(String id) {
        ids.put(id, Boolean.TRUE);
    }
}
