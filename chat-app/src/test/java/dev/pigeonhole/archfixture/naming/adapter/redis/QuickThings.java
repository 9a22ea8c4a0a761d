package dev.pigeonhole.archfixture.naming.adapter.redis;

import dev.pigeonhole.archfixture.naming.domain.port.out.ThingsPort;

/** Broken on purpose: a Redis adapter whose name hides its technology. */
public final class QuickThings implements ThingsPort {
}
