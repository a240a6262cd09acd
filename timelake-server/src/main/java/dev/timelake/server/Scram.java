package dev.timelake.server;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The server side of SCRAM-SHA-256 (RFC 5802 and 7677), as PostgreSQL speaks it: the client's first
 * message, the server's nonce, salt and iteration count, then the client's proof checked against
 * the password and the server's signature returned. No channel binding (no TLS).
 */
final class Scram {
  static final String MECHANISM = "SCRAM-SHA-256";
  private static final int ITERATIONS = 4096;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String password;
  private String clientFirstBare;
  private String serverFirst;
  private String nonce;
  private byte[] salt;

  Scram(String password) {
    this.password = password;
  }

  /** The server-first message answering {@code clientFirst} ({@code n,,n=…,r=…}). */
  String serverFirst(String clientFirst) {
    if (!clientFirst.startsWith("n,")) {
      throw new IllegalArgumentException("SCRAM channel binding is not supported (no TLS)");
    }
    clientFirstBare = clientFirst.substring(clientFirst.indexOf(',', 2) + 1);
    String clientNonce = attributes(clientFirstBare).get("r");
    if (clientNonce == null) {
      throw new IllegalArgumentException("The SCRAM client-first message has no nonce");
    }
    byte[] random = new byte[18];
    RANDOM.nextBytes(random);
    nonce = clientNonce + Base64.getEncoder().encodeToString(random);
    salt = new byte[16];
    RANDOM.nextBytes(salt);
    serverFirst =
        "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(salt) + ",i=" + ITERATIONS;
    return serverFirst;
  }

  /**
   * The server-final message ({@code v=…}) when {@code clientFinal} proves the password; empty
   * string otherwise.
   */
  String serverFinal(String clientFinal) {
    Map<String, String> final_ = attributes(clientFinal);
    String proof = final_.get("p");
    if (proof == null || !nonce.equals(final_.get("r"))) {
      return "";
    }
    String withoutProof = clientFinal.substring(0, clientFinal.lastIndexOf(",p="));
    String authMessage = clientFirstBare + "," + serverFirst + "," + withoutProof;
    try {
      byte[] salted = salted(password, salt);
      byte[] clientKey = hmac(salted, "Client Key");
      byte[] storedKey = MessageDigest.getInstance("SHA-256").digest(clientKey);
      byte[] signature = hmac(storedKey, authMessage);
      byte[] given = Base64.getDecoder().decode(proof);
      if (given.length != signature.length) {
        return "";
      }
      byte[] recovered = new byte[given.length];
      for (int i = 0; i < given.length; i++) {
        recovered[i] = (byte) (given[i] ^ signature[i]);
      }
      if (!MessageDigest.isEqual(
          MessageDigest.getInstance("SHA-256").digest(recovered), storedKey)) {
        return "";
      }
      byte[] serverSignature = hmac(hmac(salted, "Server Key"), authMessage);
      return "v=" + Base64.getEncoder().encodeToString(serverSignature);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return "";
    }
  }

  private static Map<String, String> attributes(String message) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String part : message.split(",")) {
      int equals = part.indexOf('=');
      if (equals == 1) {
        values.put(part.substring(0, 1), part.substring(2));
      }
    }
    return values;
  }

  private static byte[] salted(String password, byte[] salt) throws GeneralSecurityException {
    PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, ITERATIONS, 256);
    return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
  }

  private static byte[] hmac(byte[] key, String text) throws GeneralSecurityException {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
  }
}
