package dev.cellar.server.rpc;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The listening socket and its connections: Netty with epoll where the native transport loads
 * (Linux), NIO elsewhere. Each accepted connection gets an {@link RpcFrameDecoder} and an {@link
 * RpcConnectionHandler}; buffers come from Netty's pooled allocator (direct memory).
 *
 * <p>Threads: one acceptor thread ({@code cellar-rpc-accept}) and {@code ioThreads} event loops
 * ({@code cellar-rpc-io-N}). {@link #close()} stops accepting, closes every open connection and
 * waits for the event loops to end; calls still running on handler threads find their channel
 * closed and their responses are dropped (and released) by Netty.
 */
public final class RpcServer implements AutoCloseable {

  /**
   * Pending outbound bytes above which a connection stops being read, and below which it resumes.
   */
  static final int WRITE_HIGH_WATER = 4 * 1024 * 1024;

  static final int WRITE_LOW_WATER = 1024 * 1024;

  private static final java.util.regex.Pattern NATIVE_PREFIX =
      java.util.regex.Pattern.compile("^bind\\(\\.\\.\\) failed with error\\(-?\\d+\\): ");

  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final ChannelGroup connections;
  private final Channel listener;
  private final boolean epoll;

  private RpcServer(
      EventLoopGroup boss,
      EventLoopGroup workers,
      ChannelGroup connections,
      Channel listener,
      boolean epoll) {
    this.boss = boss;
    this.workers = workers;
    this.connections = connections;
    this.listener = listener;
    this.epoll = epoll;
  }

  /**
   * Binds {@code address} and starts serving.
   *
   * @throws IOException naming the address when it cannot be bound (in use, not local)
   */
  public static RpcServer start(
      InetSocketAddress address, int ioThreads, int maxRequestSize, RpcDispatch dispatch)
      throws IOException {
    boolean epoll = Epoll.isAvailable();
    IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    Class<? extends ServerSocketChannel> channelType =
        epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    EventLoopGroup boss =
        new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("cellar-rpc-accept", true), io);
    EventLoopGroup workers =
        new MultiThreadIoEventLoopGroup(
            ioThreads, new DefaultThreadFactory("cellar-rpc-io", true), io);
    ChannelGroup group = new DefaultChannelGroup("cellar-rpc", GlobalEventExecutor.INSTANCE);
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(boss, workers)
            .channel(channelType)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.SO_KEEPALIVE, true)
            .childOption(
                ChannelOption.WRITE_BUFFER_WATER_MARK,
                new WriteBufferWaterMark(WRITE_LOW_WATER, WRITE_HIGH_WATER))
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel channel) {
                    group.add(channel);
                    channel
                        .pipeline()
                        .addLast(
                            new RpcFrameDecoder(maxRequestSize, dispatch.metrics()),
                            new RpcConnectionHandler(dispatch));
                  }
                });
    try {
      Channel listener = bootstrap.bind(address).sync().channel();
      return new RpcServer(boss, workers, group, listener, epoll);
    } catch (Exception e) {
      boss.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      workers.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      throw new IOException(
          "cannot listen on "
              + address.getHostString()
              + ":"
              + address.getPort()
              + ": "
              + reason(e),
          e);
    }
  }

  /** The operating system's words for a failed bind, without the native call's prefix. */
  private static String reason(Exception failure) {
    String message = failure.getMessage() == null ? failure.toString() : failure.getMessage();
    return NATIVE_PREFIX.matcher(message).replaceFirst("");
  }

  /** The bound address (with the real port when 0 was asked for). */
  public InetSocketAddress address() {
    return (InetSocketAddress) listener.localAddress();
  }

  /** Whether the native epoll transport is in use. */
  public boolean usesEpoll() {
    return epoll;
  }

  /** The number of open client connections. */
  public int openConnections() {
    return connections.size();
  }

  @Override
  public void close() {
    listener.close().syncUninterruptibly();
    connections.close().syncUninterruptibly();
    boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
