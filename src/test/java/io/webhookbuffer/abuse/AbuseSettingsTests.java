package io.webhookbuffer.abuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AbuseSettingsTests {

    private static final Hostile.Targets TARGETS = new Hostile.Targets("legit", "small", "large",
            Map.of("stripe", "s", "slack", "sl", "paddle", "p", "intercom", "i", "linear", "l", "gitlab", "g"),
            "odd", "odd-secret");

    @AfterEach
    void clear() {
        System.clearProperty("abuse.hostile-groups");
        System.clearProperty("abuse.attacker-policy");
        System.clearProperty("abuse.mode");
    }

    @Test
    void theUploadsShapeRunsThirtyRoundsToTheSmallTenantAndUnknownOnesJudgedAt2x() {
        System.setProperty("abuse.mode", "uploads");

        AbuseSettings settings = AbuseSettings.fromEnvironment();

        assertEquals(30, settings.bigRounds);
        assertEquals(64, settings.big);
        assertEquals(List.of("small", "unknown"), settings.bigTargets);
        assertEquals(0, settings.hostile);
        assertEquals(2.0, settings.p99Factor);
    }

    @Test
    void theHostileClientsKeepTheNormalPolicyUnlessIdleIsAskedFor() {
        assertEquals("normal", AbuseSettings.fromEnvironment().attackerPolicy);

        System.setProperty("abuse.attacker-policy", " IDLE ");

        AbuseSettings settings = AbuseSettings.fromEnvironment();
        assertEquals("idle", settings.attackerPolicy);
        assertTrue(settings.describe().contains("nice 19 under SCHED_IDLE"), settings.describe());
    }

    @Test
    void anUnknownPolicyIsRefusedWithTheChoices() {
        System.setProperty("abuse.attacker-policy", "fifo");

        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, AbuseSettings::fromEnvironment);

        assertEquals("abuse.attacker-policy: normal, idle; was fifo", refused.getMessage());
    }

    @Test
    void everyKindOfTheCatalogueIsSentByDefault() {
        AbuseSettings settings = AbuseSettings.fromEnvironment();

        assertEquals(List.of(), settings.hostileGroups);
        assertEquals(Set.copyOf(Hostile.GROUPS), groupsOf(Hostile.catalogue(TARGETS, settings.hostileGroups)));
    }

    @Test
    void theHostileGroupsSettingKeepsOnlyTheNamedKinds() {
        System.setProperty("abuse.hostile-groups", "signed odd JSON, bad chunking");

        List<String> groups = AbuseSettings.fromEnvironment().hostileGroups;

        assertEquals(List.of("signed odd JSON", "bad chunking"), groups);
        List<Hostile> sent = Hostile.catalogue(TARGETS, groups);
        assertFalse(sent.isEmpty());
        assertEquals(Set.of("signed odd JSON", "bad chunking"), groupsOf(sent));
    }

    @Test
    void anUnknownKindIsRefusedWithTheListOfKinds() {
        System.setProperty("abuse.hostile-groups", "signed odd json");

        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, AbuseSettings::fromEnvironment);

        assertTrue(refused.getMessage().startsWith("abuse.hostile-groups"), refused.getMessage());
        assertTrue(refused.getMessage().contains("deeply nested JSON"), refused.getMessage());
        assertTrue(refused.getMessage().endsWith("was signed odd json"), refused.getMessage());
    }

    private static Set<String> groupsOf(List<Hostile> requests) {
        return requests.stream().map(Hostile::group).collect(Collectors.toSet());
    }
}
