/**
 * The JDBC driver of an embedded Timelake warehouse ({@code jdbc:timelake:/path/to/warehouse}):
 * {@link dev.timelake.jdbc.TimelakeDriver} is its only public class.
 */
package dev.timelake.jdbc;
