import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.FastThreadLocal;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.List;

/**
 * A bare Netty reverse proxy with no Pylon code: the floor of an event-loop data plane in Java, measured beside the
 * Worker by bench/worker/peers.sh on the same core. Arguments: the address to bind, the port, the upstream origin.
 * <p>
 * One epoll event loop drives both sides, as nginx's worker does: the client's connection and the upstream connection
 * it borrows from a keep-alive pool of that loop. Requests and responses stream (no aggregation) with back-pressure
 * both ways; the client's headers are copied but the hop-by-hop ones, {@code Host} becomes the upstream's and
 * {@code X-Forwarded-For} is added (nginx's {@code proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for});
 * the upstream's are copied but the hop-by-hop ones. Pipelined requests wait for the response before them. An
 * upstream that fails before answering gets the client a 502.
 * <p>
 * Threading: every handler and pool here is used only by its channel's event loop (one loop in all).
 */
public final class BareNetty {
    private static final List<AsciiString> HOP_BY_HOP = List.of(HttpHeaderNames.CONNECTION, HttpHeaderNames.KEEP_ALIVE,
            HttpHeaderNames.PROXY_CONNECTION, HttpHeaderNames.TE, HttpHeaderNames.TRAILER, HttpHeaderNames.UPGRADE,
            HttpHeaderNames.PROXY_AUTHORIZATION, HttpHeaderNames.PROXY_AUTHENTICATE);
    private static final AsciiString X_FORWARDED_FOR = AsciiString.cached("x-forwarded-for");

    private BareNetty() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 3) {
            System.err.println("usage: BareNetty <address> <port> <upstream origin, http://host:port>");
            System.exit(2);
        }
        URI origin = URI.create(args[2]);
        Upstream upstream = new Upstream(new InetSocketAddress(origin.getHost(), origin.getPort()),
                origin.getHost() + ":" + origin.getPort());
        EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        Channel server = new ServerBootstrap().group(loop).channel(EpollServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 4096)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new Frontend(upstream));
                    }
                })
                .bind(args[0], Integer.parseInt(args[1])).sync().channel();
        System.out.println("BareNetty on " + server.localAddress() + ", proxying to " + origin);
        server.closeFuture().sync();
    }

    private static void copyEndToEnd(HttpHeaders from, HttpHeaders to) {
        to.set(from);
        for (String named : from.getAll(HttpHeaderNames.CONNECTION)) {
            for (String name : named.split(",")) {
                to.remove(name.trim());
            }
        }
        for (AsciiString name : HOP_BY_HOP) {
            to.remove(name);
        }
    }

    /** The upstream's address and the idle keep-alive connections to it, one pool per event loop. */
    private static final class Upstream {
        private final InetSocketAddress address;
        private final String host;
        private final FastThreadLocal<ArrayDeque<Channel>> idle = new FastThreadLocal<>() {
            @Override
            protected ArrayDeque<Channel> initialValue() {
                return new ArrayDeque<>();
            }
        };

        Upstream(InetSocketAddress address, String host) {
            this.address = address;
            this.host = host;
        }

        /** An idle connection of the calling loop, or null. */
        Channel pooled() {
            ArrayDeque<Channel> channels = idle.get();
            for (Channel c; (c = channels.pollLast()) != null; ) {
                if (c.isActive()) {
                    return c;
                }
            }
            return null;
        }

        ChannelFuture connect(EventLoop loop) {
            return new Bootstrap().group(loop).channel(EpollSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpClientCodec(), new Backend());
                        }
                    })
                    .connect(address);
        }

        void release(Channel channel) {
            channel.config().setAutoRead(true);
            idle.get().addLast(channel);
        }
    }

    /** A client's connection: relays one exchange at a time to a borrowed upstream connection. */
    private static final class Frontend extends ChannelInboundHandlerAdapter {
        private final Upstream upstream;
        private final ArrayDeque<Object> queued = new ArrayDeque<>();
        private ChannelHandlerContext ctx;
        private Channel backend;
        private boolean exchange;
        private boolean requestEnded;
        private boolean responseStarted;
        private boolean clientKeepAlive;

        Frontend(Upstream upstream) {
            this.upstream = upstream;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext context) {
            this.ctx = context;
        }

        @Override
        public void channelRead(ChannelHandlerContext context, Object msg) {
            queued.add(msg);
            relay();
        }

        private void relay() {
            for (Object msg; (msg = queued.peek()) != null; ) {
                if (msg instanceof HttpRequest request) {
                    if (exchange) {
                        break; // pipelined: after the response in flight
                    }
                    queued.poll();
                    begin(request);
                } else if (!exchange) {
                    ReferenceCountUtil.release(queued.poll()); // the rest of a body the upstream did not wait for
                } else if (backend == null) {
                    break; // connecting
                } else {
                    send(queued.poll());
                }
            }
            // reading stops while a pipelined request waits, so a client cannot make it queue more
            boolean read = !(queued.peek() instanceof HttpRequest) && (backend == null || backend.isWritable());
            if (ctx.channel().config().isAutoRead() != read) {
                ctx.channel().config().setAutoRead(read);
            }
        }

        private void begin(HttpRequest request) {
            exchange = true;
            requestEnded = false;
            responseStarted = false;
            clientKeepAlive = HttpUtil.isKeepAlive(request);
            HttpRequest out = new DefaultHttpRequest(HttpVersion.HTTP_1_1, request.method(), request.uri());
            copyEndToEnd(request.headers(), out.headers());
            out.headers().set(HttpHeaderNames.HOST, upstream.host);
            String client = ((InetSocketAddress) ctx.channel().remoteAddress()).getAddress().getHostAddress();
            String forwarded = request.headers().get(X_FORWARDED_FOR);
            out.headers().set(X_FORWARDED_FOR, forwarded == null ? client : forwarded + ", " + client);
            Channel pooled = upstream.pooled();
            if (pooled != null) {
                attach(pooled);
                send(out);
                return;
            }
            upstream.connect(ctx.channel().eventLoop()).addListener((ChannelFuture connected) -> {
                if (!connected.isSuccess()) {
                    fail();
                } else if (!ctx.channel().isActive()) {
                    connected.channel().close();
                } else {
                    attach(connected.channel());
                    send(out);
                    relay();
                }
            });
        }

        private void attach(Channel channel) {
            backend = channel;
            channel.pipeline().get(Backend.class).frontend = this;
        }

        private void send(Object msg) {
            if (msg instanceof LastHttpContent) {
                requestEnded = true;
                backend.writeAndFlush(msg);
            } else {
                backend.write(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext context) {
            if (backend != null) {
                backend.flush();
                if (!backend.isWritable()) {
                    context.channel().config().setAutoRead(false);
                }
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext context) {
            if (backend != null && context.channel().isWritable()) {
                backend.config().setAutoRead(true);
            }
        }

        void backendWritable() {
            if (!requestEnded) {
                ctx.channel().config().setAutoRead(true);
            }
        }

        void fromUpstream(Object msg) {
            // HttpClientCodec hands a response over as its head, then its contents (nothing here aggregates them)
            if (msg instanceof HttpResponse response) {
                responseStarted = true;
                HttpResponse out = new DefaultHttpResponse(HttpVersion.HTTP_1_1, response.status());
                copyEndToEnd(response.headers(), out.headers());
                if (!clientKeepAlive) {
                    out.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                }
                ctx.write(out);
                if (!HttpUtil.isKeepAlive(response)) {
                    backend.pipeline().get(Backend.class).reusable = false;
                }
            } else if (msg instanceof HttpContent) {
                ctx.write(msg);
                if (msg instanceof LastHttpContent) {
                    end();
                }
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        void upstreamReadComplete() {
            ctx.flush();
            if (backend != null && !ctx.channel().isWritable()) {
                backend.config().setAutoRead(false);
            }
        }

        private void end() {
            Channel used = backend;
            Backend handler = used.pipeline().get(Backend.class);
            handler.frontend = null;
            backend = null;
            exchange = false;
            if (handler.reusable && requestEnded) {
                upstream.release(used);
            } else {
                used.close();
            }
            handler.reusable = true;
            if (!clientKeepAlive) {
                ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            ctx.flush();
            relay();
        }

        void upstreamClosed() {
            backend = null;
            fail();
        }

        private void fail() {
            exchange = false;
            if (responseStarted) {
                ctx.close();
                return;
            }
            var answer = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_GATEWAY);
            answer.headers().set(HttpHeaderNames.CONTENT_LENGTH, 0).set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(answer).addListener(ChannelFutureListener.CLOSE);
        }

        @Override
        public void channelInactive(ChannelHandlerContext context) {
            if (backend != null) {
                backend.pipeline().get(Backend.class).frontend = null;
                backend.close();
                backend = null;
            }
            for (Object msg; (msg = queued.poll()) != null; ) {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
            context.close();
        }
    }

    /** An upstream connection: hands what it reads to the client it is lent to. */
    private static final class Backend extends ChannelInboundHandlerAdapter {
        Frontend frontend;
        boolean reusable = true;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (frontend == null) {
                ReferenceCountUtil.release(msg); // nothing is expected on an idle connection
                ctx.close();
                return;
            }
            frontend.fromUpstream(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (frontend != null) {
                frontend.upstreamReadComplete();
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (frontend != null && ctx.channel().isWritable()) {
                frontend.backendWritable();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (frontend != null) {
                Frontend lent = frontend;
                frontend = null;
                lent.upstreamClosed();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
