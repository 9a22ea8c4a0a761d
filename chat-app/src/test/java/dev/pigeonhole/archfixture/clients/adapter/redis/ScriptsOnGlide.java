package dev.pigeonhole.archfixture.clients.adapter.redis;

import glide.api.GlideClient;

/** Broken on purpose: the shared algorithm holds a GLIDE client. */
public record ScriptsOnGlide(GlideClient client) {
}
