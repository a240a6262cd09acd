package dev.timelake.server;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a server keeps of a password: a SCRAM-SHA-256 verifier (RFC 5802), written as PostgreSQL
 * writes it in {@code pg_authid}: {@code SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>}
 * (Base64). The password itself cannot be read back from it, so a users file may be shared with
 * whoever runs the server.
 */
public record ScramSecret(int iterations, byte[] salt, byte[] storedKey, byte[] serverKey) {
  /** PostgreSQL's default iteration count. */
  static final int ITERATIONS = 4096;

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Pattern TEXT =
      Pattern.compile(
          "SCRAM-SHA-256\\$(\\d+):([A-Za-z0-9+/=]+)\\$([A-Za-z0-9+/=]+):([A-Za-z0-9+/=]+)");

  public ScramSecret {
    if (iterations < 1) {
      throw new IllegalArgumentException("The iteration count must be positive");
    }
    requireNonNull(salt, "salt is null");
    requireNonNull(storedKey, "storedKey is null");
    requireNonNull(serverKey, "serverKey is null");
  }

  /** A verifier of {@code password} with a new random salt. */
  public static ScramSecret of(String password) {
    byte[] salt = new byte[16];
    RANDOM.nextBytes(salt);
    return of(password, salt, ITERATIONS);
  }

  static ScramSecret of(String password, byte[] salt, int iterations) {
    requireNonNull(password, "password is null");
    if (password.isEmpty()) {
      throw new IllegalArgumentException("The password is empty");
    }
    try {
      byte[] salted = salted(password, salt, iterations);
      return new ScramSecret(
          iterations, salt.clone(), sha256(hmac(salted, "Client Key")), hmac(salted, "Server Key"));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SCRAM-SHA-256 needs PBKDF2 and HMAC-SHA-256", e);
    }
  }

  /** Reads {@code SCRAM-SHA-256$4096:salt$StoredKey:ServerKey}. */
  public static ScramSecret parse(String text) {
    Matcher matcher = TEXT.matcher(text.trim());
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "not a SCRAM-SHA-256 verifier (expected SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:"
              + "<ServerKey>, as `timelake hash-password` prints it)");
    }
    Base64.Decoder base64 = Base64.getDecoder();
    return new ScramSecret(
        Integer.parseInt(matcher.group(1)),
        base64.decode(matcher.group(2)),
        base64.decode(matcher.group(3)),
        base64.decode(matcher.group(4)));
  }

  /** The verifier as PostgreSQL writes it. */
  public String text() {
    Base64.Encoder base64 = Base64.getEncoder();
    return "SCRAM-SHA-256$"
        + iterations
        + ":"
        + base64.encodeToString(salt)
        + "$"
        + base64.encodeToString(storedKey)
        + ":"
        + base64.encodeToString(serverKey);
  }

  /** True when {@code password} is the one this verifies (costs one PBKDF2 of the iterations). */
  boolean matches(String password) {
    if (password == null || password.isEmpty()) {
      return false;
    }
    return MessageDigest.isEqual(of(password, salt, iterations).storedKey, storedKey);
  }

  private static byte[] salted(String password, byte[] salt, int iterations)
      throws GeneralSecurityException {
    PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, 256);
    return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
  }

  static byte[] hmac(byte[] key, String text) throws GeneralSecurityException {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] sha256(byte[] bytes) throws GeneralSecurityException {
    return MessageDigest.getInstance("SHA-256").digest(bytes);
  }
}
