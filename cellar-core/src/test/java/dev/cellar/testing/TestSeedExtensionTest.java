package dev.cellar.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The seed extension: it honours {@code -Dcellar.test.seed}, gives each test its own seed
 * otherwise, prints the seed once per test and names it in the report of a failure.
 */
class TestSeedExtensionTest {

  /** The seeds the fixtures were given, in order. */
  static final List<Long> SEEDS = new ArrayList<>();

  /** Fixtures run only through the engine test kit below (the build excludes the tag). */
  @Tag("fixture")
  @ExtendWith(TestSeedExtension.class)
  static class PerTest {
    @BeforeEach
    void before(TestSeed seed) {
      SEEDS.add(seed.value());
    }

    @RepeatedTest(3)
    void passes(TestSeed seed) {
      SEEDS.add(seed.value());
    }
  }

  @Tag("fixture")
  @ExtendWith(TestSeedExtension.class)
  static class Failing {
    @Test
    void fails(TestSeed seed) {
      SEEDS.add(seed.value());
      throw new AssertionError("the fixture fails");
    }

    @Test
    void failsWithoutASeed() {
      throw new AssertionError("the fixture fails without asking for a seed");
    }
  }

  @Tag("fixture")
  @ExtendWith(TestSeedExtension.class)
  static class PerClass {
    @BeforeAll
    static void before(TestSeed seed) {
      SEEDS.add(seed.value());
    }

    @Test
    void first(TestSeed seed) {
      SEEDS.add(seed.value());
    }

    @Test
    void second(TestSeed seed) {
      SEEDS.add(seed.value());
    }
  }

  @Test
  void theGivenSeedIsEveryTestsSeed() {
    Run run = run(PerTest.class, "1234");
    assertEquals(3, run.tests.succeeded().count());
    assertEquals(List.of(1234L, 1234L, 1234L, 1234L, 1234L, 1234L), SEEDS);
  }

  @Test
  void withoutTheSeedEachTestDrawsItsOwnAndItsLifecycleMethodsShareIt() {
    Run run = run(PerTest.class, null);
    assertEquals(3, run.tests.succeeded().count());
    assertEquals(6, SEEDS.size());
    for (int i = 0; i < 6; i += 2) {
      assertEquals(SEEDS.get(i), SEEDS.get(i + 1), "@BeforeEach and the test share a seed");
    }
    assertNotEquals(SEEDS.get(0), SEEDS.get(2));
    assertNotEquals(SEEDS.get(2), SEEDS.get(4));
  }

  @Test
  void eachSeedIsPrintedOnceWithHowToRerun() {
    Run run = run(PerTest.class, null);
    List<String> lines = run.output.lines().filter(line -> line.contains("seed")).toList();
    assertEquals(3, lines.size(), run.output);
    for (int i = 0; i < 3; i++) {
      long seed = SEEDS.get(2 * i);
      assertEquals(
          "TestSeedExtensionTest$PerTest > passes(TestSeed) > repetition "
              + (i + 1)
              + " of 3: seed "
              + seed
              + " (rerun: -Dcellar.test.seed="
              + seed
              + ")",
          lines.get(i));
    }
  }

  @Test
  void theReportOfAFailureNamesTheSeed() {
    Run run = run(Failing.class, null);
    assertEquals(2, run.tests.failed().count());
    Throwable failure = failure(run.tests, "fails(TestSeed)");
    assertEquals("the fixture fails", failure.getMessage());
    long seed = SEEDS.getFirst();
    assertEquals(
        List.of("seed " + seed + " (rerun: -Dcellar.test.seed=" + seed + ")"),
        Arrays.stream(failure.getSuppressed()).map(Throwable::getMessage).toList());
    assertInstanceOf(TestSeedExtension.Seed.class, failure.getSuppressed()[0]);
    assertEquals(
        0,
        failure(run.tests, "failsWithoutASeed()").getSuppressed().length,
        "a test that asked for no seed has none to report");
  }

  @Test
  void aSeedAskedForByBeforeAllIsTheClasssSeed() {
    Run run = run(PerClass.class, null);
    assertEquals(2, run.tests.succeeded().count());
    assertEquals(3, SEEDS.size());
    assertEquals(1, SEEDS.stream().distinct().count(), "one seed: " + SEEDS);
    assertTrue(
        run.output.contains("TestSeedExtensionTest$PerClass: seed " + SEEDS.getFirst()),
        run.output);
  }

  @Test
  void aSeedThatIsNotANumberFailsTheTestSayingSo() {
    Run run = run(Failing.class, "12x");
    Throwable failure = failure(run.tests, "fails(TestSeed)");
    assertInstanceOf(ParameterResolutionException.class, failure);
    assertTrue(
        failure.getMessage().contains("-Dcellar.test.seed=12x is not a whole number"),
        failure.getMessage());
  }

  /** The test events of a fixture class and what the run printed. */
  private record Run(Events tests, String output) {}

  /** Runs {@code fixture} with {@code -Dcellar.test.seed} set to {@code seed}, or unset. */
  private static Run run(Class<?> fixture, String seed) {
    SEEDS.clear();
    String saved = System.getProperty(TestSeed.PROPERTY);
    PrintStream out = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try {
      setSeedProperty(seed);
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      Events tests =
          EngineTestKit.engine("junit-jupiter")
              .selectors(selectClass(fixture))
              .execute()
              .testEvents();
      return new Run(tests, printed.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      setSeedProperty(saved);
    }
  }

  private static void setSeedProperty(String seed) {
    if (seed == null) {
      System.clearProperty(TestSeed.PROPERTY);
    } else {
      System.setProperty(TestSeed.PROPERTY, seed);
    }
  }

  private static Throwable failure(Events tests, String displayName) {
    return tests.failed().list().stream()
        .filter(event -> event.getTestDescriptor().getDisplayName().equals(displayName))
        .findFirst()
        .orElseThrow()
        .getPayload(TestExecutionResult.class)
        .orElseThrow()
        .getThrowable()
        .orElseThrow();
  }
}
