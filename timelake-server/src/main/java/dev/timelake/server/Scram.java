package dev.timelake.server;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server side of SCRAM-SHA-256 (RFC 5802 and 7677), as PostgreSQL speaks it: the client's first
 * message, the server's nonce, salt and iteration count, then the client's proof checked against
 * the password's verifier and the server's signature returned. No channel binding
 * (SCRAM-SHA-256-PLUS is not offered).
 */
final class Scram {
  static final String MECHANISM = "SCRAM-SHA-256";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final ScramSecret secret;
  private String gs2Header;
  private String clientFirstBare;
  private String serverFirst;
  private String nonce;

  /** A login checked against {@code secret}; an unknown user gets a random one and fails alike. */
  Scram(ScramSecret secret) {
    this.secret = secret;
  }

  /** The server-first message answering {@code clientFirst} ({@code n,,n=…,r=…}). */
  String serverFirst(String clientFirst) {
    if (!clientFirst.startsWith("n,") && !clientFirst.startsWith("y,")) {
      throw new IllegalArgumentException(
          "SCRAM channel binding is not supported; connect with channel_binding=disable or"
              + " prefer");
    }
    clientFirstBare = clientFirst.substring(clientFirst.indexOf(',', 2) + 1);
    gs2Header = clientFirst.substring(0, clientFirst.indexOf(',', 2) + 1);
    String clientNonce = attributes(clientFirstBare).get("r");
    if (clientNonce == null) {
      throw new IllegalArgumentException("The SCRAM client-first message has no nonce");
    }
    byte[] random = new byte[18];
    RANDOM.nextBytes(random);
    nonce = clientNonce + Base64.getEncoder().encodeToString(random);
    serverFirst =
        "r="
            + nonce
            + ",s="
            + Base64.getEncoder().encodeToString(secret.salt())
            + ",i="
            + secret.iterations();
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
    // The channel-binding attribute repeats the first message's GS2 header (RFC 5802 §7).
    String binding = Base64.getEncoder().encodeToString(gs2Header.getBytes(StandardCharsets.UTF_8));
    if (!binding.equals(final_.get("c"))) {
      return "";
    }
    int proofAt = clientFinal.lastIndexOf(",p=");
    if (proofAt < 0) {
      return "";
    }
    String withoutProof = clientFinal.substring(0, proofAt);
    String authMessage = clientFirstBare + "," + serverFirst + "," + withoutProof;
    try {
      byte[] storedKey = secret.storedKey();
      byte[] signature = ScramSecret.hmac(storedKey, authMessage);
      byte[] given = Base64.getDecoder().decode(proof);
      if (given.length != signature.length) {
        return "";
      }
      byte[] recovered = new byte[given.length];
      for (int i = 0; i < given.length; i++) {
        recovered[i] = (byte) (given[i] ^ signature[i]);
      }
      if (!MessageDigest.isEqual(ScramSecret.sha256(recovered), storedKey)) {
        return "";
      }
      byte[] serverSignature = ScramSecret.hmac(secret.serverKey(), authMessage);
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
}
