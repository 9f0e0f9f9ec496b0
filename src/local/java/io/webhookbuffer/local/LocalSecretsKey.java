package io.webhookbuffer.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;

import org.jboss.logging.Logger;

/**
 * Local mode's key for secrets at rest, when {@code buffer.secrets.keys} is not configured: one file,
 * {@code {buffer.local.data-dir}/secrets.key}, made on first use (32 random bytes, owner read/write only: 0600) and
 * read on every later start, so what local mode sealed stays readable. Its content is one entry of
 * {@code buffer.secrets.keys}: {@code local-<first 8 hex digits of the key's SHA-256>:<base64 key>}; the id names the
 * key, so a value sealed under a key file that was deleted says so instead of failing as damaged. Two JVMs making it
 * at once agree: the file appears whole or not at all (a hard link of a finished file), and the loser reads it.
 */
public final class LocalSecretsKey {

    private static final Logger LOG = Logger.getLogger(LocalSecretsKey.class);
    public static final String FILE_NAME = "secrets.key";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private LocalSecretsKey() {
    }

    /** The {@code buffer.secrets.keys} entry kept in {@code file}, made there first if there is none. */
    public static String loadOrCreate(Path file) {
        try {
            if (!Files.exists(file)) {
                create(file);
            }
            restrict(file);
            return Files.readString(file, StandardCharsets.US_ASCII).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("local mode: could not read or make the secrets key file " + file, e);
        }
    }

    private static void create(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        String entry = "local-" + HexFormat.of().formatHex(sha256(key)).substring(0, 8) + ":"
                + Base64.getEncoder().encodeToString(key) + "\n";
        Path draft = Files.createTempFile(dir, FILE_NAME, ".new");
        try {
            restrict(draft);
            Files.writeString(draft, entry, StandardCharsets.US_ASCII);
            Files.createLink(file, draft);
            LOG.infof("local mode: made the key that seals tenant secrets, %s (0600); keep it with the data it opens",
                    file);
        } catch (FileAlreadyExistsException e) {
            // another JVM made it first: use theirs
        } catch (UnsupportedOperationException e) {
            Files.move(draft, file); // no hard links here: fails, as it should, if the file appeared meanwhile
        } finally {
            Files.deleteIfExists(draft);
        }
    }

    /** Owner read and write only, where the file system has POSIX permissions. */
    private static void restrict(Path file) throws IOException {
        try {
            if (!Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
                Files.setPosixFilePermissions(file, OWNER_ONLY);
            }
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: nothing to restrict with
        }
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
