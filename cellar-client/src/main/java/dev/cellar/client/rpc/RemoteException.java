package dev.cellar.client.rpc;

import java.io.IOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ExceptionResponse;

/**
 * A call the server answered with a failure: the HBase exception class it named (the client's retry
 * rules key on it), the server's one-line message, and whether the server said not to retry. {@link
 * #doNotRetry()} is true for the flag and for every class HBase's client treats as permanent.
 */
public class RemoteException extends IOException {

  private static final long serialVersionUID = 1L;

  private final String className;
  private final boolean doNotRetry;
  private final boolean serverOverloaded;

  public RemoteException(
      String className, String message, boolean doNotRetry, boolean serverOverloaded) {
    super(message);
    this.className = className;
    this.doNotRetry = doNotRetry || RemoteFailures.isDoNotRetry(className);
    this.serverOverloaded = serverOverloaded;
  }

  static RemoteException of(ExceptionResponse response) {
    return new RemoteException(
        response.getExceptionClassName(),
        response.getStackTrace(),
        response.getDoNotRetry(),
        response.getServerOverloaded());
  }

  /** The fully qualified name of the HBase exception class the server named. */
  public String className() {
    return className;
  }

  public boolean doNotRetry() {
    return doNotRetry;
  }

  public boolean serverOverloaded() {
    return serverOverloaded;
  }

  /** Whether the server named {@code simpleName} (the class name without its package). */
  public boolean is(String simpleName) {
    return className.endsWith("." + simpleName) || className.equals(simpleName);
  }

  @Override
  public String getMessage() {
    String simple = className.substring(className.lastIndexOf('.') + 1);
    return simple + ": " + super.getMessage();
  }
}
