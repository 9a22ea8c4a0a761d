package dev.pigeonhole.archfixture.sql.adapter.redis;

import java.sql.Connection;

/** Broken on purpose: another store keeps something in a relational database behind the PostgreSQL adapter's back. */
public record JdbcBackedStore(Connection connection) {
}
