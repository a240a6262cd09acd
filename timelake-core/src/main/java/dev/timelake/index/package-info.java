/**
 * The ordered index with a granularity (seed 003): interval math (ids in index order, half-open
 * ranges aligned to 0), coverage of (identity, interval) pairs as 64-bit Roaring bitmaps stored in
 * Puffin statistics files, the SQL that maps rows to pairs, and coverage and gap questions. The
 * granularity's parsing rules live with the other settings in {@code dev.timelake.table}.
 */
package dev.timelake.index;
