package dev.timelake.server;

import dev.timelake.Lake;
import dev.timelake.TableName;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.arrow.memory.BufferAllocator;

/**
 * One table's group commit of line-protocol requests: requests queue while a commit of the table
 * runs, and one committer thread commits all that are queued as one append (one Iceberg snapshot
 * for many requests), again until the queue is empty; each request's thread only waits for its own
 * commit. A request whose digest the queue committed lately is answered without a new append, and
 * one whose digest is queued or being committed waits for that commit instead of queuing again; so
 * a client that resends a request (after a lost answer, or while the first is still queued) appends
 * nothing twice.
 */
final class TableCommitQueue {
  /** How many committed requests' digests a queue remembers, to recognise their resends. */
  private static final int RECENT_DIGESTS = 10_000;

  private final TableName name;
  private final Lake lake;
  private final BufferAllocator allocator;
  private final Executor committers;
  private final BackgroundMaintenance maintenance;

  /**
   * Held while a request checks its points against the table and creates or widens it, so two
   * requests cannot give a new field two types.
   */
  final Lock planning = new ReentrantLock();

  private final ArrayDeque<Pending> queued = new ArrayDeque<>();
  private boolean committing;

  /** The requests queued or being committed, by digest. */
  private final Map<String, Pending> inFlight = new HashMap<>();

  /** Digests of requests committed lately, oldest first; the oldest leave past the limit. */
  private final Set<String> recent =
      Collections.newSetFromMap(
          new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
              return size() > RECENT_DIGESTS;
            }
          });

  /**
   * The queue of table {@code name} of {@code lake}: commits run on {@code committers} with vectors
   * from {@code allocator}, and each committed table is handed to {@code maintenance}.
   */
  TableCommitQueue(
      TableName name,
      Lake lake,
      BufferAllocator allocator,
      Executor committers,
      BackgroundMaintenance maintenance) {
    this.name = name;
    this.lake = lake;
    this.allocator = allocator;
    this.committers = committers;
    this.maintenance = maintenance;
  }

  /** One request's points for the table, waiting for their commit. */
  private static final class Pending {
    final List<LineProtocol.Point> points;
    final String digest;
    final String user;
    final CompletableFuture<Void> done = new CompletableFuture<>();

    Pending(List<LineProtocol.Point> points, String digest, String user) {
      this.points = points;
      this.digest = digest;
      this.user = user;
    }
  }

  /**
   * Commits {@code points}, one request's for the table, identified by {@code digest} and written
   * by {@code user} (recorded in the snapshot summary; "(token)" for a token that names no user);
   * returns when they are committed, maybe together with other requests', or at once when a request
   * with that digest was committed lately. A request with the digest of one queued or being
   * committed is that request sent again: it waits for that one's commit and shares its outcome.
   *
   * @throws LineProtocolWriter.Stopping when the committers no longer take work
   * @throws RuntimeException what the commit threw
   */
  void commit(List<LineProtocol.Point> points, String digest, String user) {
    Pending request;
    boolean start = false;
    synchronized (this) {
      if (recent.contains(digest)) {
        return;
      }
      request = inFlight.get(digest);
      if (request == null) {
        request = new Pending(points, digest, user);
        inFlight.put(digest, request);
        queued.add(request);
        start = !committing;
        committing = true;
      }
    }
    if (start) {
      startDrain();
    }
    awaitCommit(request);
  }

  /** A digest of {@code bytes} within {@code scope}: 32 hex digits of their SHA-256. */
  static String digest(String scope, byte[] bytes) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(scope.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      return HexFormat.of().formatHex(sha.digest(bytes), 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  private void startDrain() {
    try {
      committers.execute(this::drain);
    } catch (RejectedExecutionException e) {
      // No committer will come, for this request nor for any that queued behind it meanwhile.
      failQueued(
          new LineProtocolWriter.Stopping(
              "The server is stopping; nothing was written, send it again", e));
    }
  }

  private static void awaitCommit(Pending request) {
    try {
      request.done.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }

  /** Commits what is queued, group after group, until nothing is. */
  private void drain() {
    List<Pending> group = List.of();
    try {
      while (true) {
        synchronized (this) {
          if (queued.isEmpty()) {
            committing = false;
            return;
          }
          group = new ArrayList<>(queued);
          queued.clear();
        }
        commitGroup(group);
      }
    } catch (Throwable e) {
      // Whatever failed (even running out of memory), nobody waits forever.
      group.forEach(request -> failed(request, e));
      failQueued(e);
    }
  }

  /** Fails every queued request with {@code failure}; no committer is left to take them. */
  private void failQueued(Throwable failure) {
    List<Pending> left;
    synchronized (this) {
      left = new ArrayList<>(queued);
      queued.clear();
      committing = false;
    }
    left.forEach(request -> failed(request, failure));
  }

  /** One append for the group; when it fails, each request alone, so one bad request fails. */
  private void commitGroup(List<Pending> group) {
    try {
      append(group);
      committed(group);
    } catch (RuntimeException e) {
      if (group.size() == 1) {
        failed(group.get(0), e);
        return;
      }
      for (Pending request : group) {
        try {
          append(List.of(request));
          committed(List.of(request));
        } catch (RuntimeException alone) {
          failed(request, alone);
        }
      }
    }
  }

  private void committed(List<Pending> group) {
    synchronized (this) {
      for (Pending request : group) {
        recent.add(request.digest);
        inFlight.remove(request.digest, request);
      }
    }
    group.forEach(request -> request.done.complete(null));
  }

  /** A failed request is no longer in flight: sent again, it is queued anew. */
  private void failed(Pending request, Throwable failure) {
    synchronized (this) {
      inFlight.remove(request.digest, request);
    }
    request.done.completeExceptionally(failure);
  }

  private void append(List<Pending> group) {
    List<LineProtocol.Point> points = new ArrayList<>();
    for (Pending request : group) {
      points.addAll(request.points);
    }
    PointsCommit.commit(
        lake,
        name,
        points,
        "line-protocol:" + batchId(group),
        group.stream().map(request -> request.user).toList(),
        allocator,
        maintenance);
  }

  /**
   * The append's batch id: a lone request's digest, so a resend the queue has forgotten is still
   * skipped by the table; a group's, a digest of its requests' digests.
   */
  private String batchId(List<Pending> group) {
    if (group.size() == 1) {
      return group.get(0).digest;
    }
    StringBuilder digests = new StringBuilder();
    for (Pending request : group) {
      digests.append(request.digest);
    }
    return digest(name.toString(), digests.toString().getBytes(StandardCharsets.UTF_8));
  }
}
