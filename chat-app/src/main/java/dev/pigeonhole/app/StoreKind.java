package dev.pigeonhole.app;

/** Which backend holds the data. */
public enum StoreKind {
    /** Everything in this process's memory: nothing to install, nothing survives a restart. */
    MEMORY,
    /** Redis, a single node or a cluster, through the client {@link RedisConfig} names. */
    REDIS,
    /** PostgreSQL 15 or newer, through PgJDBC and a HikariCP pool, its schema kept by Flyway. */
    POSTGRES
}
