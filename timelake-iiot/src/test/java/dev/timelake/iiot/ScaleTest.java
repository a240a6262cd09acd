package dev.timelake.iiot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ScaleTest {
  @Test
  void sizesThePlantAsTheBenchmarkDefines() {
    assertThat(Scale.TINY.tags()).isEqualTo(20);
    assertThat(Scale.TINY.hours()).isEqualTo(48);
    assertThat(Scale.MINI.tags()).isEqualTo(100);
    assertThat(Scale.MINI.machines()).isEqualTo(20);
    assertThat(Scale.SMALL.tags()).isEqualTo(1_000);
    assertThat(Scale.SMALL.days()).isEqualTo(30);
    assertThat(Scale.SMALL.approximateReadings()).isEqualTo(432_000_000L);
  }

  @Test
  void parsesLabelsInAnyCase() {
    assertThat(Scale.parse("mini")).isEqualTo(Scale.MINI);
    assertThat(Scale.parse(" SMALL ")).isEqualTo(Scale.SMALL);
    assertThat(Scale.TINY.label()).isEqualTo("tiny");
  }

  @Test
  void rejectsUnknownScaleNamingTheAllowedOnes() {
    assertThatThrownBy(() -> Scale.parse("huge"))
        .hasMessage("Invalid scale 'huge' (expected tiny, mini, small)");
  }
}
