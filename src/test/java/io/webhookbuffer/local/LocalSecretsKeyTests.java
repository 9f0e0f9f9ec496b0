package io.webhookbuffer.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.webhookbuffer.secrets.Keyring;

/** Local mode's key file: made once (0600), read on every later start, the same for JVMs that race to make it. */
class LocalSecretsKeyTests {

    @TempDir
    Path dir;

    @Test
    void madeOnceOwnerOnlyAndReadAfterwards() throws IOException {
        Path file = dir.resolve("data").resolve(LocalSecretsKey.FILE_NAME);
        String entry = LocalSecretsKey.loadOrCreate(file);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertTrue(entry.matches("^local-[0-9a-f]{8}:[A-Za-z0-9+/]{43}=$"), entry);
        assertEquals(entry, LocalSecretsKey.loadOrCreate(file), "the same key on the next start");
        Keyring keyring = Keyring.parse(List.of(entry), Optional.empty());
        assertEquals(entry.substring(0, entry.indexOf(':')), keyring.activeId());
        try (var files = Files.list(file.getParent())) {
            assertEquals(List.of(file), files.toList(), "no draft left behind");
        }
    }

    @Test
    void widerPermissionsAreNarrowed() throws IOException {
        Path file = dir.resolve(LocalSecretsKey.FILE_NAME);
        LocalSecretsKey.loadOrCreate(file);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        LocalSecretsKey.loadOrCreate(file);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void racersAgreeOnOneKey() {
        Path file = dir.resolve(LocalSecretsKey.FILE_NAME);
        List<String> keys = IntStream.range(0, 8)
                .mapToObj(i -> CompletableFuture.supplyAsync(() -> LocalSecretsKey.loadOrCreate(file)))
                .toList().stream().map(CompletableFuture::join).distinct().toList();
        assertEquals(1, keys.size(), "every racer reads the one key that was made");
    }
}
