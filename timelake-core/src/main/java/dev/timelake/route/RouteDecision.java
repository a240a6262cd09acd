package dev.timelake.route;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/** A routing decision: a plan, or why there is none; with its explanation either way. */
public record RouteDecision(Optional<RoutePlan> plan, List<String> explanation) {
  public RouteDecision {
    requireNonNull(plan, "plan is null");
    explanation = List.copyOf(explanation);
  }

  static RouteDecision routed(RoutePlan plan) {
    return new RouteDecision(Optional.of(plan), plan.explanation());
  }

  /**
   * Not routed: the first line says why (the rollups that answer the query's shape and why they
   * were not used, or that none answers it), the others what each other rollup lacked.
   */
  static RouteDecision notRouted(String reason, List<String> details) {
    List<String> lines = new java.util.ArrayList<>();
    lines.add("not routed: " + reason);
    details.forEach(line -> lines.add("not routed: " + line));
    return new RouteDecision(Optional.empty(), lines);
  }

  /** True when the query is answered from rollups. */
  public boolean isRouted() {
    return plan.isPresent();
  }

  /** Why it is not routed (the first line), or empty when it is. */
  public Optional<String> reason() {
    return plan.isPresent()
        ? Optional.empty()
        : Optional.of(explanation.get(0).substring("not routed: ".length()));
  }
}
