package dev.pigeonhole.archfixture.naming.adapter.postgres;

import dev.pigeonhole.archfixture.naming.domain.port.out.ThingsPort;

/** Broken on purpose: a PostgreSQL adapter whose name hides its technology. */
public final class SqlThings implements ThingsPort {
}
