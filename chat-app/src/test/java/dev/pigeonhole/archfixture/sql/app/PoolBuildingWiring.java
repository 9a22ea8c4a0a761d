package dev.pigeonhole.archfixture.sql.app;

import com.zaxxer.hikari.HikariConfig;

/** Broken on purpose: the composition root sizes the adapter's connection pool itself instead of handing it settings. */
public record PoolBuildingWiring(HikariConfig pool) {
}
