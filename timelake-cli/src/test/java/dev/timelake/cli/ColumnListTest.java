package dev.timelake.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.ValidationException;
import org.junit.jupiter.api.Test;

class ColumnListTest {
  @Test
  void parsesNamesTypesAndNullability() {
    assertThat(
            ColumnList.parse(
                "tag VARCHAR, time timestamp with time zone NOT NULL,"
                    + " \"my \"\"col\"\"\" DECIMAL(10, 2) null, n BIGINT not null"))
        .containsExactly(
            Column.nullable("tag", ColumnType.VARCHAR),
            Column.required("time", ColumnType.TIMESTAMPTZ),
            Column.nullable("my \"col\"", ColumnType.decimal(10, 2)),
            Column.required("n", ColumnType.BIGINT));
  }

  @Test
  void rejectsAnEmptyDefinition() {
    assertThatThrownBy(() -> ColumnList.parse("tag VARCHAR,, value DOUBLE"))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Invalid column list 'tag VARCHAR,, value DOUBLE': empty column definition");
  }

  @Test
  void rejectsAColumnWithoutType() {
    assertThatThrownBy(() -> ColumnList.parse("tag"))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Invalid column 'tag': expected name TYPE [NOT NULL], e.g. 'value DOUBLE'");
  }
}
