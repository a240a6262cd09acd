package dev.timelake.server;

import dev.timelake.ColumnType;
import dev.timelake.TableName;
import java.util.List;
import java.util.Map;

/**
 * One table's part of a line-protocol request, as {@link LineProtocolPlanner} planned it: whether
 * the table is to be {@code create}d, the {@code tags} every point has (a new table's series key),
 * the table's {@code columns} the points may fill, the columns to be {@code added}, and the points.
 */
record LineProtocolBatch(
    TableName name,
    boolean create,
    List<String> tags,
    Map<String, ColumnType> columns,
    Map<String, ColumnType> added,
    List<LineProtocol.Point> points) {}
