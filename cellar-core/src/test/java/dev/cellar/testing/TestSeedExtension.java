package dev.cellar.testing;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Picks, prints and reports the seed of randomized tests; register it with
 * {@code @ExtendWith(TestSeedExtension.class)} and declare a {@link TestSeed} parameter. It is
 * registered by hand rather than auto-detected so that a randomized test says where its seed comes
 * from, and other tests pay nothing.
 *
 * <p>The seed is {@code -Dcellar.test.seed} when given, else a fresh random one, never negative so
 * that it passes as a command-line argument. It is chosen the first time a test asks for it and
 * kept in the test's extension store: a test method and its {@code @BeforeEach} and
 * {@code @AfterEach} methods share one seed, and each test (each invocation of a parameterized or
 * repeated test) has its own. A seed asked for by a {@code @BeforeAll} method belongs to the class,
 * and the class's tests share it: a store finds what its parents hold. The seed is printed once,
 * when chosen, naming the test; and whatever the test or one of its lifecycle methods throws
 * carries the seed as a suppressed {@link Seed}, so the report of a failure names the seed that
 * produced it.
 */
public final class TestSeedExtension
    implements ParameterResolver,
        TestExecutionExceptionHandler,
        LifecycleMethodExecutionExceptionHandler {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(TestSeedExtension.class);
  private static final String KEY = "seed";

  /** The seed a failure was produced with, attached to it as a suppressed exception. */
  public static final class Seed extends Exception {
    Seed(TestSeed seed) {
      super(seed.toString(), null, false, false);
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == TestSeed.class;
  }

  @Override
  public TestSeed resolveParameter(ParameterContext parameter, ExtensionContext context) {
    ExtensionContext.Store store = context.getStore(NAMESPACE);
    TestSeed seed = store.get(KEY, TestSeed.class);
    if (seed == null) {
      seed = new TestSeed(choose());
      store.put(KEY, seed);
      System.out.println(path(context) + ": " + seed);
    }
    return seed;
  }

  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable failure)
      throws Throwable {
    throw withSeed(context, failure);
  }

  @Override
  public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable failure)
      throws Throwable {
    throw withSeed(context, failure);
  }

  @Override
  public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable failure)
      throws Throwable {
    throw withSeed(context, failure);
  }

  @Override
  public void handleAfterEachMethodExecutionException(ExtensionContext context, Throwable failure)
      throws Throwable {
    throw withSeed(context, failure);
  }

  @Override
  public void handleAfterAllMethodExecutionException(ExtensionContext context, Throwable failure)
      throws Throwable {
    throw withSeed(context, failure);
  }

  /** Returns {@code failure}, naming the seed in a suppressed {@link Seed} if one was chosen. */
  private static Throwable withSeed(ExtensionContext context, Throwable failure) {
    TestSeed seed = context.getStore(NAMESPACE).get(KEY, TestSeed.class);
    if (seed != null) {
      failure.addSuppressed(new Seed(seed));
    }
    return failure;
  }

  private static long choose() {
    String given = System.getProperty(TestSeed.PROPERTY);
    if (given == null) {
      return ThreadLocalRandom.current().nextLong(Long.MAX_VALUE);
    }
    try {
      return Long.parseLong(given.strip());
    } catch (NumberFormatException e) {
      throw new ParameterResolutionException(
          "-D" + TestSeed.PROPERTY + "=" + given + " is not a whole number", e);
    }
  }

  /** Returns the display names from the test class down to {@code context}: "Class > test()". */
  private static String path(ExtensionContext context) {
    Deque<String> names = new ArrayDeque<>();
    for (ExtensionContext at = context; at.getParent().isPresent(); at = at.getParent().get()) {
      names.addFirst(at.getDisplayName());
    }
    return String.join(" > ", names);
  }
}
