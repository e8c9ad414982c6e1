package dev.cellar.client.rpc;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.apache.hbase.thirdparty.com.google.protobuf.Parser;

/**
 * The client's connections to one server: one {@link RpcConnection} per service (ClientService,
 * MasterService, AdminService), opened on first use, reused by every call and every thread, and
 * opened again after it closed. Call ids come from one counter for all of them, from 0, wrapping at
 * {@code Integer.MAX_VALUE} as HBase's client does.
 *
 * <p><b>Threads.</b> {@value #IO_THREAD}-N Netty event loops (NIO) read and write the sockets; the
 * buffers come from Netty's pooled allocator. Opening a connection is serialized per service (one
 * connect at a time; callers meanwhile wait for it). {@link #close()} closes every connection,
 * failing the calls in flight, and stops the event loops.
 */
public final class RpcClient implements AutoCloseable {

  static final String IO_THREAD = "cellar-client-io";
  private static final int MAX_FRAME = Integer.MAX_VALUE;

  private final InetSocketAddress address;
  private final EventLoopGroup group;
  private final Bootstrap bootstrap;
  private final int connectTimeoutMillis;
  private final String user = System.getProperty("user.name", "cellar");
  private final AtomicInteger callIds = new AtomicInteger();
  private final Map<String, RpcConnection> connections = new ConcurrentHashMap<>();
  private volatile boolean closed;

  public RpcClient(InetSocketAddress address, int ioThreads, int connectTimeoutMillis) {
    this.address = address;
    this.connectTimeoutMillis = connectTimeoutMillis;
    this.group =
        new MultiThreadIoEventLoopGroup(
            ioThreads, new DefaultThreadFactory(IO_THREAD, true), NioIoHandler.newFactory());
    this.bootstrap =
        new Bootstrap()
            .group(group)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, true)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel channel) {
                    channel
                        .pipeline()
                        .addLast("frames", new LengthFieldBasedFrameDecoder(MAX_FRAME, 0, 4, 0, 4));
                  }
                });
  }

  public InetSocketAddress address() {
    return address;
  }

  /**
   * Sends {@code method} of {@code service}; see {@link RpcConnection#call}. Takes over {@code
   * cells}. A failure to connect fails the future with a {@link ConnectionClosedException}.
   */
  public <T extends Message> CompletableFuture<RpcResponse<T>> call(
      String service,
      String method,
      Message request,
      ByteBuf cells,
      Parser<T> parser,
      long timeoutMillis) {
    RpcConnection connection;
    try {
      connection = connection(service);
    } catch (ConnectionClosedException e) {
      if (cells != null) {
        cells.release();
      }
      return CompletableFuture.failedFuture(e);
    }
    int callId = callIds.getAndUpdate(id -> id == Integer.MAX_VALUE ? 0 : id + 1);
    return connection.call(callId, method, request, cells, parser, timeoutMillis);
  }

  /** The allocator request cell blocks are built in. */
  public PooledByteBufAllocator allocator() {
    return PooledByteBufAllocator.DEFAULT;
  }

  /** The number of calls in flight on every connection. */
  public int pendingCalls() {
    return connections.values().stream().mapToInt(RpcConnection::pendingCalls).sum();
  }

  private RpcConnection connection(String service) throws ConnectionClosedException {
    RpcConnection connection = connections.get(service);
    if (connection != null && connection.isActive()) {
      return connection;
    }
    synchronized (this) {
      if (closed) {
        throw new ConnectionClosedException("the client of " + address + " is closed", null);
      }
      connection = connections.get(service);
      if (connection != null && connection.isActive()) {
        return connection;
      }
      ChannelFuture connect = bootstrap.connect(address);
      if (!connect.awaitUninterruptibly(connectTimeoutMillis + 1000L, TimeUnit.MILLISECONDS)
          || !connect.isSuccess()) {
        connect.channel().close();
        Throwable cause = connect.cause();
        throw new ConnectionClosedException(
            "cannot connect to "
                + address
                + " ("
                + (cause == null
                    ? "no answer in " + connectTimeoutMillis + " ms"
                    : cause.getMessage())
                + ")",
            cause);
      }
      Channel channel = connect.channel();
      connection = RpcConnection.start(channel, service, user);
      connections.put(service, connection);
      return connection;
    }
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
    }
    connections.values().forEach(RpcConnection::close);
    connections.clear();
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
