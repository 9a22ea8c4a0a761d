package dev.pigeonhole.testsupport;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoopbackPortsTest {

    @Test
    void a_free_port_and_its_offsets_can_be_bound_and_stay_below_the_ephemeral_range() throws IOException {
        int port = LoopbackPorts.free(List.of(10000));

        assertThat(port + 10000).isLessThan(32768);
        try (ServerSocket server = new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
             ServerSocket bus = new ServerSocket(port + 10000, 1, InetAddress.getLoopbackAddress())) {
            assertThat(server.getLocalPort()).isEqualTo(port);
            assertThat(bus.getLocalPort()).isEqualTo(port + 10000);
        }
    }

    @Test
    void an_unused_port_refuses_connections() {
        int port = LoopbackPorts.unused();

        assertThatThrownBy(() -> {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
            }
        }).isInstanceOf(IOException.class);
    }
}
