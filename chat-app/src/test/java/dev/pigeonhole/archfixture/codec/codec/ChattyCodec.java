package dev.pigeonhole.archfixture.codec.codec;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Broken on purpose: the wire format logs what it reads. */
public final class ChattyCodec {

    private static final Logger LOG = LoggerFactory.getLogger(ChattyCodec.class);

    public String decode(String json) {
        LOG.info("decoding {}", json);
        return json;
    }
}
