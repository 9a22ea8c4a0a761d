package dev.pigeonhole.adapter.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At most so many connections open at once from one client address; one more is closed as soon
 * as it opens. Jetty ships a limit for all connections together, not per address.
 *
 * <p>Counting follows the socket, not the protocol on it: Jetty reports each accepted channel
 * and each closed one, whatever it was upgraded to in between. The refusal happens when the
 * connection opens, where Jetty expects a close.
 */
final class ConnectionsPerAddress implements SelectorManager.AcceptListener, Connection.Listener {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionsPerAddress.class);

    private final int max;
    /** Open connections per address; an address leaves the map when its last connection closes. */
    private final Map<InetAddress, Integer> open = new ConcurrentHashMap<>();
    /** Each counted channel's address, so a close is uncounted exactly once and for the right address. */
    private final Map<SelectableChannel, InetAddress> counted = new ConcurrentHashMap<>();
    /** Channels over the limit, until their connection opens and is closed. */
    private final Set<SelectableChannel> refused = ConcurrentHashMap.newKeySet();

    ConnectionsPerAddress(int max) {
        this.max = max;
    }

    /**
     * A bean for the server that puts the limit on its network connectors as it starts: they
     * are not there yet when the server is configured. The limit itself is no bean, so that no
     * connector takes on its lifecycle.
     */
    AbstractLifeCycle installer(Server server) {
        ConnectionsPerAddress limit = this;
        return new AbstractLifeCycle() {
            @Override
            protected void doStart() {
                for (Connector connector : server.getConnectors()) {
                    if (connector instanceof ServerConnector network) {
                        network.getSelectorManager().addEventListener(limit);
                        network.addEventListener(limit);
                    }
                }
            }
        };
    }

    @Override
    public void onAccepted(SelectableChannel channel) {
        InetAddress address = addressOf(channel);
        if (address == null) {
            return;
        }
        counted.put(channel, address);
        int now = open.merge(address, 1, Integer::sum);
        if (now > max) {
            refused.add(channel);
        }
    }

    @Override
    public void onOpened(Connection connection) {
        if (refused.remove(connection.getEndPoint().getTransport())) {
            LOG.debug("refusing a connection from {}: it holds {} already", connection.getEndPoint().getRemoteSocketAddress(),
                    max);
            connection.getEndPoint().close();
        }
    }

    @Override
    public void onClosed(SelectableChannel channel) {
        uncount(channel);
    }

    @Override
    public void onAcceptFailed(SelectableChannel channel, Throwable cause) {
        uncount(channel);
    }

    /** How many connections an address holds now, for the tests. */
    int openFrom(InetAddress address) {
        return open.getOrDefault(address, 0);
    }

    private void uncount(SelectableChannel channel) {
        refused.remove(channel);
        InetAddress address = counted.remove(channel);
        if (address != null) {
            open.computeIfPresent(address, (key, count) -> count > 1 ? count - 1 : null);
        }
    }

    private static InetAddress addressOf(SelectableChannel channel) {
        try {
            return channel instanceof SocketChannel socket && socket.getRemoteAddress() instanceof InetSocketAddress remote
                    ? remote.getAddress() : null;
        } catch (IOException e) {
            // Gone before it could be counted: nothing to limit.
            return null;
        }
    }
}
