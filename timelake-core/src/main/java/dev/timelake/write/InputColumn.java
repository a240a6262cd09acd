package dev.timelake.write;

/** A column of an append's input as DuckDB describes it. */
record InputColumn(String name, String duckdbType) {}
