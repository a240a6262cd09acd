package dev.timelake.server;

import dev.timelake.Session;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The server's running sessions by the key and secret each client got at startup (BackendKeyData),
 * so that a cancel request, which comes on a connection of its own, interrupts the right one.
 */
final class PgCancels {
  private record Running(int secret, Session session) {}

  private final Map<Integer, Running> sessions = new ConcurrentHashMap<>();

  void register(int key, int secret, Session session) {
    sessions.put(key, new Running(secret, session));
  }

  /** How many sessions run. */
  int size() {
    return sessions.size();
  }

  void unregister(int key) {
    sessions.remove(key);
  }

  /** Interrupts the session of {@code key} when {@code secret} is its; ignores others. */
  void cancel(int key, int secret) {
    Running running = sessions.get(key);
    if (running != null && running.secret() == secret) {
      running.session().cancel();
    }
  }
}
