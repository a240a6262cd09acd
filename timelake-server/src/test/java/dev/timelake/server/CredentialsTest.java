package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ClientAccess;
import dev.timelake.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Users files give each user a role and, optionally, the namespaces the user may use. */
class CredentialsTest {
  private static final String SECRET = ScramSecret.of("pw").text();

  @TempDir Path folder;

  @Test
  void eachUserHasTheRoleItsLineGives() throws Exception {
    Credentials users =
        read(
            "grafana:" + SECRET + " role=read",
            "telegraf:" + SECRET + " role=write namespaces=plant,IOT",
            "old:" + SECRET);

    assertThat(users.accessOf("grafana")).isEqualTo(ClientAccess.of("grafana", Role.READ));
    assertThat(users.accessOf("telegraf"))
        .isEqualTo(new ClientAccess("telegraf", Role.WRITE, Set.of("plant", "iot")));
    // A line written before roles existed keeps an admin's rights; the server warns about it.
    assertThat(users.accessOf("old")).isEqualTo(ClientAccess.of("old", Role.ADMIN));
    assertThat(users.usersWithoutRole()).containsExactly("old");
  }

  @Test
  void thePasswordOfTheEnvironmentIsAnAdmins() {
    assertThat(new Credentials("tl", "pw").accessOf("tl").role()).isEqualTo(Role.ADMIN);
    assertThat(new Credentials(null, "pw").accessOf("anyone").role()).isEqualTo(Role.ADMIN);
  }

  @Test
  void malformedRolesAreRefusedNamingTheLine() throws Exception {
    assertThatThrownBy(() -> read("a:" + SECRET + " role=root"))
        .hasMessageEndingWith(
            "line 1: user 'a': Unknown role 'root' (expected read, write or admin)");
    assertThatThrownBy(() -> read("a:" + SECRET + " colour=blue"))
        .hasMessageContaining("line 1: user 'a': unknown field 'colour=blue'");
    assertThatThrownBy(() -> read("a:" + SECRET + " namespaces=iot"))
        .hasMessageContaining("namespaces= needs a role= too");
    assertThatThrownBy(() -> read("a:" + SECRET + " role=read namespaces=pg_catalog"))
        .hasMessageContaining("'pg_catalog' is a reserved name");
  }

  @Test
  void aChangedUsersFileIsReadAgainAtTheNextLoginCheck() throws Exception {
    Credentials users = read("ada:" + SECRET + " role=admin", "rob:" + SECRET + " role=read");
    Credentials withEnvironment = users.and(new Credentials("env", "env pw"));
    assertThat(withEnvironment.admits("rob", "pw")).isTrue();

    rewrite(
        "ada:" + ScramSecret.of("new pw").text() + " role=read", "cy:" + SECRET + " role=write");

    for (Credentials credentials : java.util.List.of(users, withEnvironment)) {
      assertThat(credentials.admits("rob", "pw")).as("a removed user").isFalse();
      assertThat(credentials.admits("ada", "pw")).as("an old password").isFalse();
      assertThat(credentials.admits("ada", "new pw")).isTrue();
      assertThat(credentials.accessOf("ada").role()).isEqualTo(Role.READ);
      assertThat(credentials.admits("cy", "pw")).as("an added user").isTrue();
    }
    // The environment's user stays beside the file's.
    assertThat(withEnvironment.admits("env", "env pw")).isTrue();
    assertThat(users.admits("env", "env pw")).isFalse();
  }

  @Test
  void aUsersFileThatNoLongerReadsLeavesItsLastGoodUsers() throws Exception {
    Credentials users = read("ada:" + SECRET + " role=admin");
    rewrite("ada:" + SECRET + " role=root");
    assertThat(users.admits("ada", "pw")).isTrue();
    assertThat(users.accessOf("ada").role()).isEqualTo(Role.ADMIN);
    Files.delete(folder.resolve("users.txt"));
    assertThat(users.admits("ada", "pw")).isTrue();
  }

  /** Writes the users file anew, its modification time moved on so that a change shows. */
  private void rewrite(String... lines) throws Exception {
    Path file = folder.resolve("users.txt");
    java.nio.file.attribute.FileTime before = Files.getLastModifiedTime(file);
    Files.write(file, java.util.List.of(lines));
    Files.setLastModifiedTime(
        file, java.nio.file.attribute.FileTime.fromMillis(before.toMillis() + 2_000));
  }

  private Credentials read(String... lines) throws Exception {
    Path file = folder.resolve("users.txt");
    Files.write(file, java.util.List.of(lines));
    return Credentials.fromFile(file);
  }
}
