/**
 * The ordered index with a granularity (seed 003): the granularity's parsing rules and the interval
 * math (ids in index order, half-open ranges aligned to 0). The conflict checks and coverage are
 * built on it.
 */
package dev.timelake.index;
