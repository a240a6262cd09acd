package dev.timelake.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ValidationException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ByteSizesTest {
  @ParameterizedTest
  @CsvSource({
    "1048576, 1048576",
    "0, 0",
    "128MB, 134217728",
    "128 mb, 134217728",
    "512KiB, 524288",
    "512k, 524288",
    "2GiB, 2147483648",
    "1T, 1099511627776",
    "100b, 100"
  })
  void parsesSizesInBinaryUnits(String text, long bytes) {
    assertThat(ByteSizes.parse(text)).isEqualTo(bytes);
  }

  @Test
  void rejectsTextThatIsNotASize() {
    for (String text : List.of("big", "12 parsecs", "-1MB", "1.5GB", "")) {
      assertThatThrownBy(() -> ByteSizes.parse(text))
          .as(text)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("expected a size such as 128MB, 512KiB or 1048576");
    }
  }

  @Test
  void rejectsSizesTooLargeToRepresent() {
    for (String text : List.of("16777216TB", "9999999999G", "99999999999999999999")) {
      assertThatThrownBy(() -> ByteSizes.parse(text))
          .as(text)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("expected a size such as 128MB, 512KiB or 1048576");
    }
  }

  @Test
  void bytesSettingStoresTheByteCountAndRejectsBadValues() {
    Setting target =
        new Setting(
            "target-file-size",
            SettingKind.BYTES,
            Optional.of("134217728"),
            Set.of(Level.TABLE),
            List.of(),
            "0.1",
            "Target size of compacted files.");

    assertThat(target.canonical("128MB")).isEqualTo("134217728");
    assertThatThrownBy(() -> target.canonical("huge"))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Invalid setting 'target-file-size': 'huge' (expected a size such as 128MB, 512KiB or"
                + " 1048576)");
  }
}
