package dev.pigeonhole.domain.service;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.out.Channels;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * What a service announced on one channel, heard through the store's real channels. To tell
 * "nothing more" from "not yet", {@link #all()} publishes an end marker and reads up to it: a
 * channel delivers in publish order.
 */
public final class Heard implements AutoCloseable {

    private static final UserId END = UserId.of("end-of-test");

    private final Channels channels;
    private final Channel channel;
    private final BlockingQueue<LiveEvent> events = new LinkedBlockingQueue<>();
    private final Channels.Connection connection;

    public Heard(Channels channels, Channel channel) {
        this.channels = channels;
        this.channel = channel;
        this.connection = channels.connect(new Channels.Receiver() {
            @Override
            public void onEvent(Topic via, Channel on, LiveEvent event) {
                events.add(event);
            }

            @Override
            public void onResubscribed() {
            }
        });
        connection.subscribe(channel);
    }

    /** Everything announced so far, in order. */
    public List<LiveEvent> all() throws InterruptedException {
        channels.publish(channel, new LiveEvent.PresenceChanged(END, true, Instant.EPOCH));
        List<LiveEvent> heard = new ArrayList<>();
        while (true) {
            LiveEvent event = events.poll(10, TimeUnit.SECONDS);
            if (event == null) {
                throw new AssertionError("the end marker never came on " + channel + "; heard " + heard);
            }
            if (event instanceof LiveEvent.PresenceChanged marker && marker.user().equals(END)) {
                return heard;
            }
            heard.add(event);
        }
    }

    @Override
    public void close() {
        connection.close();
    }
}
