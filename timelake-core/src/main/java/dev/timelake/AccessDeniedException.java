package dev.timelake;

/**
 * A statement refused because of who runs it (a server user's role or namespaces) or because a
 * server's client may never run it (files, ATTACH, extensions, instance-wide settings); SQLSTATE
 * {@code 42501}. Nothing was changed.
 */
public final class AccessDeniedException extends TimelakeException {
  public AccessDeniedException(String message) {
    super(ErrorCode.VALIDATION, message);
  }

  @Override
  public String sqlState() {
    return "42501";
  }
}
