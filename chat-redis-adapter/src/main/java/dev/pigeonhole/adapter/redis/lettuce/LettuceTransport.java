package dev.pigeonhole.adapter.redis.lettuce;

import io.netty.channel.Channel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Which of Netty's transports carries Lettuce's sockets.
 *
 * <p>Lettuce chooses once per process, when its transport classes load: epoll wherever Netty's
 * native epoll library loads (Linux on x86-64, which this module ships it for), NIO everywhere
 * else, and NIO when the JVM runs with {@code -D}{@value #EPOLL_PROPERTY}{@code =false}. Being fixed per
 * process, it is not a setting of one driver: two drivers in one JVM could not differ. What the
 * adapter does is name it: each connector reads the transport off the channels its client opens
 * and logs it once per process, with the reason when it is not epoll.
 */
enum LettuceTransport {
    /** Netty's native transport on Linux: the event loop waits in epoll and is woken by an eventfd. */
    EPOLL,
    /** The JDK's selector: what Lettuce falls back to where epoll is unavailable or turned off. */
    NIO,
    /** Another native transport (kqueue, io_uring), which Lettuce would take if its library were present. */
    OTHER;

    /** Lettuce's own switch: {@code false} keeps it on NIO even where epoll is available. */
    static final String EPOLL_PROPERTY = "io.lettuce.core.epoll";

    private static final Logger LOG = LoggerFactory.getLogger(LettuceTransport.class);
    private static final AtomicBoolean NAMED = new AtomicBoolean();

    static LettuceTransport of(Channel channel) {
        if (channel instanceof EpollSocketChannel) {
            return EPOLL;
        }
        if (channel instanceof NioSocketChannel) {
            return NIO;
        }
        return OTHER;
    }

    /** Logs, the first time in this process, which transport {@code channel} runs on and why. */
    static void nameOnce(Channel channel) {
        if (NAMED.compareAndSet(false, true)) {
            LettuceTransport transport = of(channel);
            LOG.info("Lettuce connects to Redis over {} ({}){}", transport, channel.getClass().getSimpleName(),
                    transport == EPOLL ? "" : ": " + whyNotEpoll());
        }
    }

    private static String whyNotEpoll() {
        // read as Lettuce reads it: anything but "true" turns epoll off
        if (!Boolean.parseBoolean(System.getProperty(EPOLL_PROPERTY, "true"))) {
            return "epoll is turned off by -D" + EPOLL_PROPERTY + "=false";
        }
        return Epoll.isAvailable() ? "another native transport came first"
                : "epoll is unavailable here (" + Epoll.unavailabilityCause() + ")";
    }
}
