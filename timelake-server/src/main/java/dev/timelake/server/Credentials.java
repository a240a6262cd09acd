package dev.timelake.server;

import static java.util.Objects.requireNonNull;

import dev.timelake.ClientAccess;
import dev.timelake.Role;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who may connect, each user with a SCRAM-SHA-256 verifier ({@link ScramSecret}) and a {@link
 * Role}: from {@code TIMELAKE_USER} and {@code TIMELAKE_PASSWORD} (no user: any name with that
 * password; an admin), and from a users file of {@code name:SCRAM-SHA-256$… [role=read|write|admin]
 * [namespaces=iot,plant]} lines (a line without a role, as files written before roles have, is an
 * admin). There is never a default password, and no server runs without credentials.
 */
public final class Credentials {
  /** The variable naming the user (default: any user name the client sends is that user). */
  public static final String USER_VARIABLE = "TIMELAKE_USER";

  /** The variable holding the password. */
  public static final String PASSWORD_VARIABLE = "TIMELAKE_PASSWORD";

  /**
   * One reading of the users: their verifiers, roles, and the passwords already checked against
   * them (by digest of user and password: PBKDF2 once, not per request). A new reading of the users
   * file starts with no password checked, so a changed password is checked afresh.
   */
  private record Users(
      Map<String, ScramSecret> users,
      Optional<ScramSecret> anyUser,
      Map<String, ClientAccess> roles,
      Set<String> withoutRole,
      Set<String> admitted) {
    Users(
        Map<String, ScramSecret> users,
        Optional<ScramSecret> anyUser,
        Map<String, ClientAccess> roles,
        Set<String> withoutRole) {
      this(
          Map.copyOf(users),
          anyUser,
          Map.copyOf(roles),
          Set.copyOf(withoutRole),
          ConcurrentHashMap.newKeySet());
    }

    static final Users NONE = new Users(Map.of(), Optional.empty(), Map.of(), Set.of());

    /** These users and those of {@code other}; a user in both keeps this one's password. */
    Users and(Users other) {
      Map<String, ScramSecret> merged = new LinkedHashMap<>(other.users);
      merged.putAll(users);
      Map<String, ClientAccess> mergedRoles = new LinkedHashMap<>(other.roles);
      Set<String> mergedWithoutRole = new java.util.TreeSet<>(other.withoutRole);
      for (String user : users.keySet()) {
        mergedRoles.remove(user);
        mergedWithoutRole.remove(user);
      }
      mergedRoles.putAll(roles);
      mergedWithoutRole.addAll(withoutRole);
      return new Users(merged, anyUser.or(() -> other.anyUser), mergedRoles, mergedWithoutRole);
    }
  }

  /** What the users file looked like when it was read: a change of any of these reads it again. */
  private record FileStamp(Object key, long size, FileTime modified) {
    static Optional<FileStamp> of(Path file) {
      try {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        return Optional.of(
            new FileStamp(attributes.fileKey(), attributes.size(), attributes.lastModifiedTime()));
      } catch (IOException e) {
        return Optional.empty();
      }
    }
  }

  /** The users file's reading (users and stamp), and those merged with {@link #extra}. */
  private record Reading(Users fromFile, Optional<FileStamp> stamp, Users merged) {}

  private static final System.Logger LOG = System.getLogger(Credentials.class.getName());

  /** The users file, read again when it changes; empty for credentials from the environment. */
  private final Optional<Path> file;

  /** Users beside the file's (the environment's); the file's win. */
  private final Users extra;

  private volatile Reading reading;

  /** Failed logins per address, for every server these credentials guard. */
  private final LoginThrottle throttle = new LoginThrottle(Clock.systemUTC());

  private Credentials(Optional<Path> file, Reading reading, Users extra) {
    this.file = file;
    this.reading = reading;
    this.extra = extra;
  }

  private Credentials(Map<String, ScramSecret> users, Optional<ScramSecret> anyUser) {
    this(Optional.empty(), fixed(new Users(users, anyUser, Map.of(), Set.of())), Users.NONE);
  }

  private static Reading fixed(Users users) {
    return new Reading(users, Optional.empty(), users);
  }

  /** One user ({@code user} null or empty: any name) with {@code password}. */
  public Credentials(String user, String password) {
    this(
        user == null || user.isEmpty() ? Map.of() : Map.of(user, ScramSecret.of(password)),
        user == null || user.isEmpty()
            ? Optional.of(ScramSecret.of(requireNonNull(password, "password is null")))
            : Optional.empty());
  }

  /** The credentials the environment sets, if it sets a password; no user means any name. */
  public static Optional<Credentials> fromEnvironment(Map<String, String> environment) {
    String password = environment.get(PASSWORD_VARIABLE);
    if (password == null || password.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Credentials(environment.get(USER_VARIABLE), password));
  }

  /**
   * Reads a users file: one {@code name:SCRAM-SHA-256$…} per line ({@code timelake hash-password}
   * prints them); blank lines and lines starting with {@code #} are skipped. The file is read again
   * whenever it has changed when a login is checked, so a user removed from it, or given another
   * password or role, is refused from then on (and the web console's logins of that user end); a
   * file that no longer reads leaves the users of its last good reading, with a warning logged.
   *
   * @throws IllegalArgumentException naming the file and line of a malformed entry
   */
  public static Credentials fromFile(Path file) throws IOException {
    Optional<FileStamp> stamp = FileStamp.of(file);
    Users users = read(file);
    return new Credentials(Optional.of(file), new Reading(users, stamp, users), Users.NONE);
  }

  private static Users read(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    Map<String, ScramSecret> users = new LinkedHashMap<>();
    Map<String, ClientAccess> roles = new LinkedHashMap<>();
    Set<String> withoutRole = new java.util.TreeSet<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int colon = line.indexOf(':');
      String where = file + " line " + (i + 1) + ": ";
      if (colon <= 0) {
        throw new IllegalArgumentException(where + "expected name:SCRAM-SHA-256$…");
      }
      String name = line.substring(0, colon);
      if (users.containsKey(name)) {
        throw new IllegalArgumentException(where + "user '" + name + "' is listed twice");
      }
      String[] fields = line.substring(colon + 1).split("\\s+");
      try {
        users.put(name, ScramSecret.parse(fields[0]));
        Optional<ClientAccess> access = access(name, List.of(fields).subList(1, fields.length));
        access.ifPresentOrElse(a -> roles.put(name, a), () -> withoutRole.add(name));
      } catch (IllegalArgumentException | dev.timelake.TimelakeException e) {
        throw new IllegalArgumentException(where + "user '" + name + "': " + e.getMessage(), e);
      }
    }
    if (users.isEmpty()) {
      throw new IllegalArgumentException(file + " lists no users");
    }
    return new Users(users, Optional.empty(), roles, withoutRole);
  }

  /** The users now: the users file read again first when it has changed since the last reading. */
  private Users current() {
    Reading now = reading;
    if (file.isEmpty()) {
      return now.merged();
    }
    Optional<FileStamp> stamp = FileStamp.of(file.get());
    if (stamp.equals(now.stamp())) {
      return now.merged();
    }
    synchronized (this) {
      now = reading;
      if (!stamp.equals(now.stamp())) {
        Users fromFile = now.fromFile();
        try {
          fromFile = read(file.get());
          LOG.log(System.Logger.Level.INFO, "Read the users file " + file.get() + " again");
        } catch (IOException | IllegalArgumentException e) {
          LOG.log(
              System.Logger.Level.WARNING,
              "The users file "
                  + file.get()
                  + " changed and cannot be read ("
                  + e.getMessage()
                  + "); its last good reading still holds");
        }
        now = new Reading(fromFile, stamp, fromFile.and(extra));
        reading = now;
      }
      return now.merged();
    }
  }

  /** A user's {@code role=…} and {@code namespaces=…} fields; empty when the line gives no role. */
  private static Optional<ClientAccess> access(String user, List<String> fields) {
    Optional<Role> role = Optional.empty();
    Set<String> namespaces = new java.util.TreeSet<>();
    for (String field : fields) {
      int equals = field.indexOf('=');
      String key = equals < 0 ? field : field.substring(0, equals);
      String value = equals < 0 ? "" : field.substring(equals + 1);
      switch (key) {
        case "role" -> role = Optional.of(Role.parse(value));
        case "namespaces" -> {
          for (String namespace : value.split(",")) {
            // A valid, creatable namespace name; the table part is a placeholder.
            namespaces.add(
                new dev.timelake.TableName(namespace.strip(), "t").requireCreatable().namespace());
          }
        }
        default ->
            throw new IllegalArgumentException(
                "unknown field '" + field + "' (expected role=read|write|admin, namespaces=a,b)");
      }
    }
    if (role.isEmpty() && !namespaces.isEmpty()) {
      throw new IllegalArgumentException("namespaces= needs a role= too");
    }
    return role.map(r -> new ClientAccess(user, r, namespaces));
  }

  /** The line of a users file for {@code user} with {@code secret}, {@code role} and namespaces. */
  public static String line(String user, ScramSecret secret, Role role, Set<String> namespaces) {
    requireNonNull(role, "role is null");
    return user
        + ":"
        + secret.text()
        + " role="
        + role
        + (namespaces.isEmpty()
            ? ""
            : " namespaces=" + String.join(",", new java.util.TreeSet<>(namespaces)));
  }

  /** What {@code user}, logged in, may do: its role (an admin when the file gives none). */
  public ClientAccess accessOf(String user) {
    return current().roles().getOrDefault(user, ClientAccess.of(user, Role.ADMIN));
  }

  /** The users of a file whose line gives no role (admins); a server warns about them. */
  public Set<String> usersWithoutRole() {
    return current().withoutRole();
  }

  /**
   * These users and those of {@code other}, which is read once (the environment's); a user in both
   * keeps this one's password. A users file of these is still read again when it changes.
   */
  public Credentials and(Credentials other) {
    Users merged = extra.and(other.current());
    Reading now = reading;
    return new Credentials(
        file, new Reading(now.fromFile(), now.stamp(), now.fromFile().and(merged)), merged);
  }

  /** A secret key of this server's, for {@link #decoy}. */
  private final byte[] decoyKey = java.security.SecureRandom.getSeed(32);

  /** The one verifier unknown users are checked against (nobody knows its password). */
  private final ScramSecret decoy = ScramSecret.of(java.util.UUID.randomUUID().toString());

  /**
   * What an unknown user's login is checked against: it always fails, costs no key derivation, and
   * shows the salt a real user would have, the same on every attempt (derived from the name), so
   * the exchange does not tell which users exist.
   */
  ScramSecret decoy(String user) {
    try {
      javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
      mac.init(new javax.crypto.spec.SecretKeySpec(decoyKey, "HmacSHA256"));
      byte[] salt = java.util.Arrays.copyOf(mac.doFinal(user.getBytes(StandardCharsets.UTF_8)), 16);
      return new ScramSecret(decoy.iterations(), salt, decoy.storedKey(), decoy.serverKey());
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA-256 is part of every Java runtime", e);
    }
  }

  /** The failed-login throttle the servers that share these credentials share too. */
  LoginThrottle throttle() {
    return throttle;
  }

  /** The verifier {@code user} logs in with, if that user may log in. */
  Optional<ScramSecret> secretOf(String user) {
    Users now = current();
    ScramSecret secret = now.users().get(user);
    return secret != null ? Optional.of(secret) : now.anyUser();
  }

  /** True when {@code user} may log in with {@code password}. */
  boolean admits(String user, String password) {
    if (password == null || password.isEmpty()) {
      return false;
    }
    Users now = current();
    String key = digest(user + "\u0000" + password);
    if (now.admitted().contains(key)) {
      return true;
    }
    ScramSecret secret = now.users().get(user);
    boolean matches =
        Optional.ofNullable(secret)
            .or(now::anyUser)
            .map(known -> known.matches(password))
            .orElse(false);
    if (matches) {
      now.admitted().add(key);
    }
    return matches;
  }

  /**
   * The user whose password {@code password} is (an InfluxDB 2 token names no user): a listed user,
   * or the empty name when any name may log in with it.
   */
  Optional<String> userOfToken(String password) {
    Users now = current();
    if (now.anyUser().isPresent() && admits("", password)) {
      return Optional.of("");
    }
    return now.users().keySet().stream().filter(user -> admits(user, password)).findFirst();
  }

  /** True when {@code password} is the password of some user: an InfluxDB 2 token names no user. */
  boolean admitsToken(String password) {
    return userOfToken(password).isPresent();
  }

  /** The names of the listed users (none when any name may log in with the one password). */
  public Set<String> users() {
    return current().users().keySet();
  }

  private static String digest(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
